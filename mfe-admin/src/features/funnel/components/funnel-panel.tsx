import * as Collapsible from '@radix-ui/react-collapsible';
import { Fragment, useId, useState } from 'react';
import type { FunnelCounts, FunnelReferrers, FunnelWindow } from '@site/contracts/admin';
import { cn } from '@site/ui';
import { LoadFailed, LoadingRows } from '../../../components/load-state';
import { Panel } from '../../../components/panel';
import { errorMessage } from '../../../lib/admin-request';
import { formatDay, formatNumber } from '../../../lib/format';
import { useFunnelQuery } from '../api/get-funnel';

const STEPS: { key: keyof FunnelCounts; label: string; className: string }[] = [
  { key: 'analysesStarted', label: 'Analyses started', className: 'bg-blue-600 dark:bg-blue-400' },
  { key: 'analysesCompleted', label: 'Analyses completed', className: 'bg-emerald-600 dark:bg-emerald-400' },
  { key: 'analysesErrored', label: 'Analyses errored', className: 'bg-red-600 dark:bg-red-400' },
  { key: 'contactSubmits', label: 'Contact messages', className: 'bg-amber-500 dark:bg-amber-300' },
];

/**
 * Horizontal bars, one per step; the figures are in its name (the summary) and in the table below it. Laid out in
 * HTML rather than a scaled SVG, so the labels keep their size on a phone.
 */
function FunnelBars({ window: w, summaryId }: { window: FunnelWindow; summaryId: string }) {
  const max = Math.max(1, ...STEPS.map((s) => w[s.key]));
  return (
    <div role="img" aria-labelledby={summaryId} className="grid max-w-xl grid-cols-[auto_minmax(0,1fr)_auto] items-center gap-x-3 gap-y-2.5 text-sm">
      {STEPS.map((s) => {
        const value = w[s.key];
        return (
          <Fragment key={s.key}>
            <span className="text-fg">{s.label}</span>
            <span className="h-5 overflow-hidden rounded bg-surface-muted">
              <span className={cn('block h-full rounded', s.className)} style={{ width: `${value > 0 ? Math.max(2, (value / max) * 100) : 0}%` }} />
            </span>
            <span className="text-right font-semibold tabular-nums text-fg">{formatNumber(value)}</span>
          </Fragment>
        );
      })}
    </div>
  );
}

/** How views arrived, most telling first; `internal` is a move between pages, not an arrival. */
const ARRIVALS: { key: keyof FunnelReferrers; label: string }[] = [
  { key: 'search', label: 'Search engines' },
  { key: 'social', label: 'Social networks' },
  { key: 'other', label: 'Other sites' },
  { key: 'direct', label: 'Direct (typed, bookmarked or from an app)' },
  { key: 'internal', label: 'From another page of this site' },
];

const percent = (part: number, whole: number) => (whole > 0 ? `${Math.round((part / whole) * 100)}%` : '–');

/** A path with break opportunities after each `/`, so a long one wraps between its segments on a phone. */
function PagePath({ path }: { path: string }) {
  const parts = path.split('/');
  return (
    <>
      {parts.map((part, i) => (
        <Fragment key={i}>
          {i > 0 && (
            <>
              /<wbr />
            </>
          )}
          {part}
        </Fragment>
      ))}
    </>
  );
}

/**
 * The visitor funnel from stored tracking events (contact messages: the leads stored): last 7 or 30 days, top pages, and
 * the daily figures as a table.
 */
export function FunnelPanel() {
  const funnel = useFunnelQuery();
  const [days, setDays] = useState(7);
  const [tableOpen, setTableOpen] = useState(false);
  const summaryId = useId();
  const topPagesId = useId();
  const arrivalsId = useId();
  const data = funnel.data;
  const w = data?.windows.find((x) => x.days === days) ?? data?.windows[0];
  // The one ratio shown, completed of started, both from events. An analysis started just before the window's first
  // day can complete inside it, so a window may hold more completions than starts: capped at 100%, never "110%". The
  // contact step (stored leads, from the form or the API) is in no ratio: a lead needs no analysis, nor any event.
  const completion = w && w.analysesStarted > 0 ? Math.min(100, Math.round((w.analysesCompleted / w.analysesStarted) * 100)) : null;

  return (
    <Panel
      title="Visitor funnel"
      description="From the site's own tracking events; contact messages are those stored in the inbox."
      actions={
        <div role="group" aria-label="Period" className="inline-flex rounded-lg border border-border p-0.5">
          {[7, 30].map((d) => (
            <button
              key={d}
              type="button"
              aria-pressed={days === d}
              onClick={() => setDays(d)}
              className={cn(
                'cursor-pointer rounded-md px-3 py-1 text-sm font-semibold focus-visible:outline-2 focus-visible:outline-offset-2',
                days === d ? 'bg-primary text-primary-fg' : 'text-fg hover:bg-surface-muted',
              )}
            >
              {d} days
            </button>
          ))}
        </div>
      }
    >
      {funnel.error && !data ? (
        <LoadFailed title="Could not load the funnel" message={errorMessage(funnel.error, 'The server did not answer.')} onRetry={() => void funnel.refetch()} />
      ) : !w ? (
        <LoadingRows label="Loading the funnel…" rows={3} />
      ) : (
        <div className="grid gap-6 lg:grid-cols-[minmax(0,3fr)_minmax(0,2fr)]">
          <div className="min-w-0">
            <p id={summaryId} className="mb-3 text-sm text-muted-fg">
              Last {w.days} days ({formatDay(w.from)} – {formatDay(w.to)}): {formatNumber(w.pageViews)} page views, {formatNumber(w.analysesStarted)} analyses
              started, {formatNumber(w.analysesCompleted)} completed{completion !== null ? ` (${completion}%)` : ''}, {formatNumber(w.analysesErrored)} errored,{' '}
              {formatNumber(w.contactSubmits)} contact messages.
            </p>
            <FunnelBars window={w} summaryId={summaryId} />
            <Collapsible.Root open={tableOpen} onOpenChange={setTableOpen} className="mt-3">
              <Collapsible.Trigger className="cursor-pointer text-sm font-semibold text-primary underline-offset-2 hover:underline dark:text-blue-300">
                {tableOpen ? 'Hide daily figures' : 'Show daily figures (table)'}
              </Collapsible.Trigger>
              <Collapsible.Content>
                <div tabIndex={0} role="region" aria-label={`Daily figures, last ${w.days} days`} className="mt-2 max-h-80 overflow-auto rounded-xl border border-border">
                  <table className="w-full text-left text-xs">
                    <thead className="sticky top-0 bg-surface-muted text-muted-fg">
                      <tr>
                        <th scope="col" className="px-2 py-1.5 font-semibold">Day</th>
                        <th scope="col" className="px-2 py-1.5 text-right font-semibold">Views</th>
                        <th scope="col" className="px-2 py-1.5 text-right font-semibold">Started</th>
                        <th scope="col" className="px-2 py-1.5 text-right font-semibold">Completed</th>
                        <th scope="col" className="px-2 py-1.5 text-right font-semibold">Errored</th>
                        <th scope="col" className="px-2 py-1.5 text-right font-semibold">Contact</th>
                      </tr>
                    </thead>
                    <tbody className="divide-y divide-border tabular-nums">
                      {w.daily.map((d) => (
                        <tr key={d.date}>
                          <th scope="row" className="whitespace-nowrap px-2 py-1 font-normal">{formatDay(d.date)}</th>
                          <td className="px-2 py-1 text-right">{d.pageViews}</td>
                          <td className="px-2 py-1 text-right">{d.analysesStarted}</td>
                          <td className="px-2 py-1 text-right">{d.analysesCompleted}</td>
                          <td className="px-2 py-1 text-right">{d.analysesErrored}</td>
                          <td className="px-2 py-1 text-right">{d.contactSubmits}</td>
                        </tr>
                      ))}
                    </tbody>
                  </table>
                </div>
              </Collapsible.Content>
            </Collapsible.Root>
          </div>
          <div className="min-w-0 space-y-5">
            <div>
              <h3 id={arrivalsId} className="text-sm font-semibold text-fg">
                Page views
              </h3>
              <p className="mt-1 text-2xl font-bold tabular-nums text-fg">{formatNumber(w.pageViews)}</p>
              {w.pageViews > 0 && (
                <dl aria-labelledby={arrivalsId} className="mt-2 space-y-1 text-sm">
                  {ARRIVALS.map((a) => (
                    <div key={a.key} className="flex items-baseline justify-between gap-3">
                      <dt className="min-w-0 text-muted-fg">{a.label}</dt>
                      <dd className="shrink-0 tabular-nums text-fg">
                        {formatNumber(w.referrers[a.key])} <span className="text-muted-fg">({percent(w.referrers[a.key], w.pageViews)})</span>
                      </dd>
                    </div>
                  ))}
                </dl>
              )}
            </div>
            <div>
              <h3 id={topPagesId} className="text-sm font-semibold text-fg">
                Top pages
              </h3>
              {w.topPages.length === 0 ? (
                <p className="mt-2 text-sm text-muted-fg">No page views recorded in this period.</p>
              ) : (
                <ol aria-labelledby={topPagesId} className="mt-2 space-y-1.5 text-sm">
                  {w.topPages.map((p) => (
                    <li key={p.path} className="flex items-baseline justify-between gap-3">
                      <span className="min-w-0 font-mono text-xs text-fg [overflow-wrap:anywhere]">
                        <PagePath path={p.path} />
                      </span>
                      <span className="shrink-0 tabular-nums text-muted-fg">
                        {formatNumber(p.views)}
                        <span className="sr-only"> {p.views === 1 ? 'view' : 'views'}</span>
                      </span>
                    </li>
                  ))}
                </ol>
              )}
            </div>
          </div>
        </div>
      )}
    </Panel>
  );
}
