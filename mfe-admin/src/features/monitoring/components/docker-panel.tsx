import { LoadFailed, LoadingRows } from '../../../components/load-state';
import { Panel } from '../../../components/panel';
import { NotAvailable, StatTile } from '../../../components/stat-tile';
import { StatusPill } from '../../../components/status-pill';
import { errorMessage } from '../../../lib/admin-request';
import { formatRelative } from '../../../lib/format';
import { useDockerQuery } from '../api/get-docker';

/** Containers from the Docker socket when it is mounted; otherwise says so. */
export function DockerPanel() {
  const docker = useDockerQuery();
  const data = docker.data;
  return (
    <Panel title="Docker containers" description="Read from the Docker socket when the server can see it.">
      {docker.error && !data ? (
        <LoadFailed title="Could not load the container summary" message={errorMessage(docker.error, 'The server did not answer.')} onRetry={() => void docker.refetch()} />
      ) : !data ? (
        <LoadingRows label="Loading containers…" rows={2} />
      ) : !data.available ? (
        <NotAvailable reason={data.reason} />
      ) : (
        <>
          <dl className="grid grid-cols-2 gap-2 sm:grid-cols-4">
            <StatTile label="Total" value={data.total} />
            <StatTile label="Running" value={data.running} tone="ok" />
            <StatTile label="Healthy" value={data.healthy} tone="ok" />
            <StatTile label="Unhealthy" value={data.unhealthy} tone={data.unhealthy > 0 ? 'danger' : undefined} />
          </dl>
          {data.containers.length > 0 && (
            <ul className="mt-3 divide-y divide-border rounded-xl border border-border">
              {data.containers.map((c) => (
                <li key={c.id} className="flex flex-col gap-1 p-3 sm:flex-row sm:items-center sm:justify-between">
                  <div className="min-w-0">
                    <p className="break-all font-semibold text-fg">{c.name}</p>
                    <p className="break-all text-xs text-muted-fg">
                      {c.image}
                      {c.ports.length > 0 && ` · ${c.ports.join(', ')}`} · checked {formatRelative(c.lastCheck)}
                    </p>
                  </div>
                  <div className="flex gap-2">
                    <StatusPill tone={c.status === 'running' ? 'ok' : 'warning'}>{c.status}</StatusPill>
                    {c.health !== 'none' && <StatusPill tone={c.health === 'healthy' ? 'ok' : c.health === 'unhealthy' ? 'danger' : 'neutral'}>{c.health}</StatusPill>}
                  </div>
                </li>
              ))}
            </ul>
          )}
        </>
      )}
    </Panel>
  );
}
