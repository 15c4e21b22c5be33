import type { AnalysisDataSource, HealthCheck, HealthStatus } from '@site/contracts/admin';
import { ApiError, Button, notify } from '@site/ui';
import { LoadFailed, LoadingRows } from '../../../components/load-state';
import { Panel } from '../../../components/panel';
import { StatusPill, type Tone } from '../../../components/status-pill';
import { errorMessage } from '../../../lib/admin-request';
import { formatDateTime, formatRelative } from '../../../lib/format';
import { useHealthQuery } from '../api/get-health';
import { useRefreshHealthMutation } from '../api/refresh-health';

const TONE: Record<HealthStatus, Tone> = { ok: 'ok', warning: 'warning', down: 'danger', unknown: 'neutral' };
const LABEL: Record<HealthStatus, string> = { ok: 'Healthy', warning: 'Warning', down: 'Down', unknown: 'Not checked yet' };

function figure(check: HealthCheck): string | null {
  if (check.value === null) return null;
  if (check.unit === 'percent') return `${Math.round(check.value * 10) / 10}%`;
  if (check.unit === 'messages') return `${check.value} ${check.value === 1 ? 'message' : 'messages'} waiting`;
  if (check.unit === 'ms') return check.value < 10 ? `${check.value.toFixed(1)} ms` : `${Math.round(check.value)} ms`;
  return String(check.value);
}

/** Which keys make the free analysis tool's data real; without them its scorecards are marked as sample data. */
function AnalysisKeysNote({ sources }: { sources: AnalysisDataSource[] }) {
  return (
    <div className="mt-4 rounded-xl border border-border bg-bg p-3 text-sm">
      <p className="font-semibold text-fg">Analysis tool data</p>
      <p className="mt-1 text-muted-fg">Each key below turns its part of the free scorecard from sample data into real data. Set it in the server environment and restart.</p>
      <ul className="mt-2 space-y-1.5">
        {sources.map((d) => (
          <li key={d.key} className="flex flex-wrap items-center justify-between gap-2">
            <span className="min-w-0">
              <code className="font-mono text-xs text-fg">{d.key}</code>
              <span className="text-muted-fg">: {d.provides}</span>
            </span>
            <StatusPill tone={d.configured ? 'ok' : 'warning'}>{d.configured ? 'Configured: real data' : 'Not set: sample data'}</StatusPill>
          </li>
        ))}
      </ul>
    </div>
  );
}

/** The server's health checks (database, each remote, outbox, disk, memory, CPU) with Refresh to run them now. */
export function HealthSummary() {
  const health = useHealthQuery();
  const refresh = useRefreshHealthMutation();
  const refreshing = refresh.isPending;

  const onRefresh = () =>
    refresh.mutate(undefined, {
      onSuccess: () => notify.success('Health checks updated'),
      onError: (err) => {
        if (!(err instanceof ApiError && err.status === 401)) notify.error('Could not run the health checks', { description: errorMessage(err, 'The server did not answer.') });
      },
    });

  const data = health.data;
  return (
    <Panel
      title="Health checks"
      description={
        data?.checkedAt ? (
          <>
            Last run <time dateTime={data.checkedAt} title={formatDateTime(data.checkedAt)}>{formatRelative(data.checkedAt)}</time>; the server repeats them every minute.
          </>
        ) : (
          'The server runs these checks every minute.'
        )
      }
      actions={
        <>
          {data && <StatusPill tone={TONE[data.status]}>{LABEL[data.status]}</StatusPill>}
          <Button size="sm" variant="secondary" onClick={onRefresh} disabled={refreshing} aria-busy={refreshing || undefined}>
            <svg aria-hidden="true" viewBox="0 0 24 24" className={refreshing ? 'h-4 w-4 animate-spin' : 'h-4 w-4'} fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round">
              <path d="M20 12a8 8 0 1 1-2.34-5.66M20 4v4h-4" />
            </svg>
            {refreshing ? 'Refreshing…' : 'Refresh'}
          </Button>
        </>
      }
    >
      <div role="status" className="sr-only">
        {refreshing ? 'Running the health checks…' : ''}
      </div>
      {health.error && !data ? (
        <LoadFailed title="Could not load the health checks" message={errorMessage(health.error, 'The server did not answer.')} onRetry={() => void health.refetch()} />
      ) : !data ? (
        <LoadingRows label="Loading health checks…" rows={3} />
      ) : data.checks.length === 0 ? (
        <p className="text-sm text-muted-fg">No results yet. Press Refresh to run the checks now.</p>
      ) : (
        <ul className={refreshing ? 'grid gap-3 opacity-60 sm:grid-cols-2 xl:grid-cols-3' : 'grid gap-3 sm:grid-cols-2 xl:grid-cols-3'} aria-busy={refreshing || undefined}>
          {data.checks.map((c) => (
            <li key={c.id} className="min-w-0 rounded-xl border border-border bg-bg p-3">
              <div className="flex items-start justify-between gap-2">
                <p className="min-w-0 break-words font-semibold text-fg">{c.name}</p>
                <StatusPill tone={TONE[c.status]}>{LABEL[c.status]}</StatusPill>
              </div>
              <p className="mt-1 break-words text-sm text-muted-fg">{c.message}</p>
              <p className="mt-2 flex flex-wrap gap-x-3 text-xs text-muted-fg">
                {figure(c) && <span className="font-semibold text-fg">{figure(c)}</span>}
                {c.responseTimeMs !== null && c.unit !== 'ms' && <span>{Math.round(c.responseTimeMs)} ms</span>}
                {c.version && <span>v{c.version}</span>}
              </p>
            </li>
          ))}
        </ul>
      )}
      {data?.analysisData && <AnalysisKeysNote sources={data.analysisData} />}
    </Panel>
  );
}
