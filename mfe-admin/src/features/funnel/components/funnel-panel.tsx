import * as Collapsible from '@radix-ui/react-collapsible';
import { useId, useState } from 'react';
import type { FunnelCounts, FunnelWindow } from '@site/contracts/admin';
import { cn } from '@site/ui';
import { LoadFailed, LoadingRows } from '../../../components/load-state';
import { Panel } from '../../../components/panel';
import { errorMessage } from '../../../lib/admin-request';
import { formatDay, formatNumber } from '../../../lib/format';
import { useResource } from '../../../lib/use-resource';
import { getFunnel } from '../api/get-funnel';

const STEPS: { key: keyof FunnelCounts; label: string; className: string }[] = [
  { key: 'analysesStarted', label: 'Analyses started', className: 'fill-blue-600 dark:fill-blue-400' },
  { key: 'analysesCompleted', label: 'Analyses completed', className: 'fill-emerald-600 dark:fill-emerald-400' },
  { key: 'analysesErrored', label: 'Analyses errored', className: 'fill-red-600 dark:fill-red-400' },
  { key: 'contactSubmits', label: 'Contact messages', className: 'fill-amber-500 dark:fill-amber-300' },
];

const ROW = 34;
const LABEL_W = 150;
const BAR_W = 200;

/** Horizontal bars, drawn in plain SVG; the figures are in its name and in the table below it. */
function FunnelBars({ window: w, summaryId }: { window: FunnelWindow; summaryId: string }) {
  const max = Math.max(1, ...STEPS.map((s) => w[s.key]));
  return (
    <svg viewBox={`0 0 ${LABEL_W + BAR_W + 50} ${STEPS.length * ROW}`} role="img" aria-labelledby={summaryId} className="w-full max-w-xl">
      {STEPS.map((s, i) => {
        const value = w[s.key];
        const width = Math.max(value > 0 ? 3 : 0, (value / max) * BAR_W);
        const y = i * ROW;
        return (
          <g key={s.key}>
            <text x={0} y={y + ROW / 2 + 5} className="fill-fg text-[13px]">
              {s.label}
            </text>
            <rect x={LABEL_W} y={y + 7} width={BAR_W} height={ROW - 14} rx={4} className="fill-surface-muted" />
            <rect x={LABEL_W} y={y + 7} width={width} height={ROW - 14} rx={4} className={s.className} />
            <text x={LABEL_W + BAR_W + 8} y={y + ROW / 2 + 5} className="fill-fg text-[13px] font-semibold">
              {formatNumber(value)}
            </text>
          </g>
        );
      })}
    </svg>
  );
}

/** The visitor funnel from stored tracking events: last 7 or 30 days, top pages, and the daily figures as a table. */
export function FunnelPanel() {
  const funnel = useResource('funnel', getFunnel);
  const [days, setDays] = useState(7);
  const [tableOpen, setTableOpen] = useState(false);
  const summaryId = useId();
  const data = funnel.data;
  const w = data?.windows.find((x) => x.days === days) ?? data?.windows[0];
  const completion = w && w.analysesStarted > 0 ? Math.round((w.analysesCompleted / w.analysesStarted) * 100) : null;

  return (
    <Panel
      title="Visitor funnel"
      description="From the site's own tracking events."
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
        <LoadFailed title="Could not load the funnel" message={errorMessage(funnel.error, 'The server did not answer.')} onRetry={funnel.reload} />
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
          <div className="min-w-0">
            <h3 className="text-sm font-semibold text-fg">Top pages</h3>
            {w.topPages.length === 0 ? (
              <p className="mt-2 text-sm text-muted-fg">No page views recorded in this period.</p>
            ) : (
              <ol className="mt-2 space-y-1.5 text-sm">
                {w.topPages.map((p) => (
                  <li key={p.path} className="flex items-baseline justify-between gap-3">
                    <span className="min-w-0 break-all font-mono text-xs text-fg">{p.path}</span>
                    <span className="shrink-0 tabular-nums text-muted-fg">{formatNumber(p.views)}</span>
                  </li>
                ))}
              </ol>
            )}
          </div>
        </div>
      )}
    </Panel>
  );
}
