import { cn } from '@site/ui';

/** One figure with its label, for summaries (counts of containers, vulnerabilities…). */
export function StatTile({ label, value, tone }: { label: string; value: number | string; tone?: 'danger' | 'warning' | 'ok' }) {
  return (
    <div className="rounded-xl border border-border bg-bg px-3 py-2.5">
      <dt className="text-xs font-semibold text-muted-fg">{label}</dt>
      <dd
        className={cn(
          'mt-0.5 text-2xl font-bold tabular-nums text-fg',
          tone === 'danger' && 'text-red-700 dark:text-red-300',
          tone === 'warning' && 'text-amber-800 dark:text-amber-300',
          tone === 'ok' && 'text-emerald-800 dark:text-emerald-300',
        )}
      >
        {value}
      </dd>
    </div>
  );
}

/** The honest answer when this host cannot provide a figure: never an invented number. */
export function NotAvailable({ reason }: { reason: string }) {
  return (
    <div className="rounded-xl border border-dashed border-border p-4 text-sm">
      <p className="font-semibold text-fg">Not available on this host</p>
      {reason.trim().toLowerCase() !== 'not available on this host' && <p className="mt-1 text-muted-fg">{reason}</p>}
    </div>
  );
}
