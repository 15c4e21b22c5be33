import type { CanaryRules, CanaryStatus } from '@site/contracts/deploys';
import type { ReleaseCounts } from '@site/contracts/release-errors';
import { Button } from '@site/ui';
import { LoadFailed, LoadingRows } from '../../../components/load-state';
import { Panel } from '../../../components/panel';
import { ReleaseCountsList } from '../../../components/release-counts';
import { StatusPill, type Tone } from '../../../components/status-pill';
import { errorMessage } from '../../../lib/admin-request';
import { formatDateTime, formatNumber, formatRate } from '../../../lib/format';
import { useCanariesQuery } from '../api/get-canaries';

/** Where a canary stands against the rule that rolls it back (the server's check decides; this says what it sees). */
function standing(canary: CanaryStatus, rules: CanaryRules): { tone: Tone; label: string } {
  const { pageViews, rate } = canary.canary;
  if (pageViews < rules.minPageViews) return { tone: 'neutral', label: `Collecting: ${formatNumber(pageViews)} of ${formatNumber(rules.minPageViews)} page views` };
  const over = (rate ?? 0) >= rules.maxRate && (rate ?? 0) >= rules.ratio * (canary.served.rate ?? 0);
  return over ? { tone: 'danger', label: 'Over the threshold: rolling back' } : { tone: 'ok', label: 'Within the threshold' };
}

function Figures({ title, version, share, counts }: { title: string; version: string; share: number; counts: ReleaseCounts }) {
  return (
    <div className="min-w-0 rounded-xl border border-border bg-bg p-3">
      <h4 className="flex flex-wrap items-baseline gap-x-2 text-sm font-semibold text-fg">
        {title} <span className="break-all font-mono text-xs font-normal">{version}</span>
        <span className="text-xs font-normal text-muted-fg">{share}% of visitors</span>
      </h4>
      <div className="mt-2">
        <ReleaseCountsList counts={counts} />
      </div>
    </div>
  );
}

function CanaryItem({ canary, rules }: { canary: CanaryStatus; rules: CanaryRules }) {
  const state = standing(canary, rules);
  const rest = 100 - canary.percent;
  return (
    <article aria-label={`Canary of ${canary.app} ${canary.version}`} className="min-w-0 space-y-3 p-3 sm:p-4">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h3 className="min-w-0 break-words font-semibold text-fg">
          {canary.app} <span className="font-mono text-sm">{canary.version}</span>
        </h3>
        <StatusPill tone={state.tone}>{state.label}</StatusPill>
      </div>
      <div>
        <p className="text-sm text-fg">
          Live split: <strong>{canary.percent}%</strong> of visitors get <span className="break-all font-mono text-xs">{canary.version}</span>, <strong>{rest}%</strong> keep{' '}
          <span className="break-all font-mono text-xs">{canary.current}</span>.
        </p>
        {/* The same split, drawn; the sentence above says it in words. */}
        <div aria-hidden="true" className="mt-2 flex h-2.5 overflow-hidden rounded-full bg-slate-300 dark:bg-slate-600">
          <div className="h-full bg-primary dark:bg-blue-400" style={{ width: `${canary.percent}%` }} />
        </div>
      </div>
      <div className="grid gap-3 sm:grid-cols-2">
        <Figures title="Canary" version={canary.version} share={canary.percent} counts={canary.canary} />
        <Figures title="Served" version={canary.current} share={rest} counts={canary.served} />
      </div>
      <p className="text-xs text-muted-fg">
        Counted since {formatDateTime(canary.countedSince)}, every instance added up. Started {formatDateTime(canary.startedAt)} by {canary.by}.{' '}
        {canary.promoteAfter ? `Served to everyone at ${formatDateTime(canary.promoteAfter)} unless rolled back before.` : 'Served to everyone when it is promoted again without a percent.'}
      </p>
    </article>
  );
}

/**
 * The canaries running now: each one's live split and both releases' page views, errors and error rate, read again every
 * 10 seconds while one runs, and the rule that rolls one back by itself.
 */
export function CanariesPanel() {
  const query = useCanariesQuery();
  const data = query.data;
  const reload = () => void query.refetch();
  const rules = data?.rules;
  return (
    <Panel
      title="Canaries"
      description={
        rules
          ? `A staged release served to a share of visitors, each keeping it on every page. It is rolled back by itself when its error rate reaches ${formatRate(rules.maxRate)} and ${rules.ratio} times the served release's, over at least ${formatNumber(rules.minPageViews)} of its page views.${rules.minReporters ? ` Browser errors count once at least ${formatNumber(rules.minReporters)} visitors reported them.` : ''}`
          : 'A staged release served to a share of visitors.'
      }
      actions={
        <Button size="sm" variant="secondary" onClick={reload} disabled={query.isFetching} aria-busy={query.isFetching || undefined}>
          {query.isFetching && data ? 'Refreshing…' : 'Refresh'}
        </Button>
      }
    >
      {query.error && !data ? (
        <LoadFailed title="Could not load the canaries" message={errorMessage(query.error, 'The server did not answer.')} onRetry={reload} />
      ) : !data ? (
        <LoadingRows label="Loading the canaries…" rows={1} />
      ) : data.canaries.length === 0 || !rules ? (
        <p className="rounded-xl border border-dashed border-border p-4 text-sm text-muted-fg">
          No canary is running. Promote a staged release with a percent to start one: <code className="break-all font-mono text-xs">POST /api/releases/&#123;app&#125;/promote</code> with{' '}
          <code className="break-all font-mono text-xs">{'{ "version", "percent": 10 }'}</code>.
        </p>
      ) : (
        <ul aria-label="Canaries running" className="divide-y divide-border rounded-xl border border-border">
          {data.canaries.map((canary) => (
            <li key={`${canary.app}@${canary.version}`}>
              <CanaryItem canary={canary} rules={rules} />
            </li>
          ))}
        </ul>
      )}
    </Panel>
  );
}
