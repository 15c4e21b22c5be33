import type { ReleaseCounts, ReleaseErrorRow } from '@site/contracts/release-errors';
import { Button } from '@site/ui';
import { LoadFailed, LoadingRows } from '../../../components/load-state';
import { Panel } from '../../../components/panel';
import { ReleaseCountsList } from '../../../components/release-counts';
import { StatusPill } from '../../../components/status-pill';
import { errorMessage } from '../../../lib/admin-request';
import { formatRate } from '../../../lib/format';
import { useReleaseErrorsQuery } from '../api/get-release-errors';

function Figures({ counts, label }: { counts: ReleaseCounts; label: string }) {
  return (
    <div>
      <p className="text-xs font-semibold uppercase tracking-wide text-muted-fg">{label}</p>
      <div className="mt-1">
        <ReleaseCountsList counts={counts} wide />
      </div>
    </div>
  );
}

function ReleaseItem({ row, windowMinutes }: { row: ReleaseErrorRow; windowMinutes: number }) {
  return (
    <li className="min-w-0 space-y-3 p-3">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <p className="min-w-0 break-words font-semibold text-fg">
          {row.app} <span className="font-mono text-sm">{row.release}</span>
        </p>
        <div className="flex flex-wrap gap-2">
          {row.served && <StatusPill tone="neutral">Served</StatusPill>}
          {row.failing ? <StatusPill tone="danger">Failing</StatusPill> : <StatusPill tone="ok">OK</StatusPill>}
        </div>
      </div>
      <Figures counts={row.window} label={`Last ${windowMinutes} minutes`} />
      <Figures counts={row.day} label="Last 24 hours" />
      {row.lastError !== null && (
        <div className="text-sm">
          <p className="text-muted-fg">Last client error (as a visitor’s browser sent it)</p>
          {/* Visitor text: React escapes it; never HTML. */}
          <code className="mt-1 block break-all rounded-lg bg-surface-muted px-2 py-1 font-mono text-xs text-fg">{row.lastError}</code>
        </div>
      )}
    </li>
  );
}

/** Errors per release: each remote's served release (and any other counted today) with its page views, errors and rate. */
export function ReleaseErrorsPanel() {
  const query = useReleaseErrorsQuery();
  const reload = () => void query.refetch();
  const data = query.data;
  const failing = data?.releases.filter((r) => r.failing).length ?? 0;
  return (
    <Panel
      title="Errors per release"
      description={
        data
          ? `Server render errors and browser errors per page view of each remote's release, every instance added up. A release is failing at ${formatRate(data.threshold.rate)} or more over at least ${data.threshold.minPageViews} page views in ${data.windowMinutes} minutes.${data.threshold.minReporters ? ` Browser errors count once at least ${data.threshold.minReporters} visitors reported them.` : ''}`
          : 'Page views and errors of each remote’s release.'
      }
      actions={
        <>
          {data && (failing > 0 ? <StatusPill tone="danger">{failing === 1 ? '1 release failing' : `${failing} releases failing`}</StatusPill> : <StatusPill tone="ok">No release failing</StatusPill>)}
          <Button size="sm" variant="secondary" onClick={reload} disabled={query.isFetching} aria-busy={query.isFetching || undefined}>
            {query.isFetching && data ? 'Refreshing…' : 'Refresh'}
          </Button>
        </>
      }
    >
      {query.error && !data ? (
        <LoadFailed title="Could not load the errors per release" message={errorMessage(query.error, 'The server did not answer.')} onRetry={reload} />
      ) : !data ? (
        <LoadingRows label="Loading errors per release…" rows={2} />
      ) : data.releases.length === 0 ? (
        <p className="rounded-xl border border-dashed border-border p-4 text-sm text-muted-fg">No remote is served yet.</p>
      ) : (
        <ul className="divide-y divide-border rounded-xl border border-border">
          {data.releases.map((row) => (
            <ReleaseItem key={`${row.app}@${row.release}`} row={row} windowMinutes={data.windowMinutes} />
          ))}
        </ul>
      )}
    </Panel>
  );
}
