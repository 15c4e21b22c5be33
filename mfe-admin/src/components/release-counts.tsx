import type { ReleaseCounts } from '@site/contracts/release-errors';
import { cn } from '@site/ui';
import { formatNumber, formatRate } from '../lib/format';

/**
 * A release's page views, render errors, browser errors and error rate, as a list of terms: the dashboard's Errors per
 * release (`wide`: four columns from the small breakpoint) and the Deploys screen's canaries (two columns).
 */
export function ReleaseCountsList({ counts, wide = false }: { counts: ReleaseCounts; wide?: boolean }) {
  const items: Array<[string, string]> = [
    ['Page views', formatNumber(counts.pageViews)],
    ['Render errors', formatNumber(counts.renderErrors)],
    // Browser errors decide only once enough distinct visitors reported them (the server's rule): who sent them is shown.
    ['Browser errors', counts.clientReporters !== undefined && counts.clientErrors > 0 ? `${formatNumber(counts.clientErrors)} from ${formatNumber(counts.clientReporters)} ${counts.clientReporters === 1 ? 'visitor' : 'visitors'}` : formatNumber(counts.clientErrors)],
    ['Error rate', formatRate(counts.rate)],
  ];
  return (
    <dl className={cn('grid grid-cols-2 gap-x-4 gap-y-1 text-sm', wide && 'sm:grid-cols-4')}>
      {items.map(([name, value]) => (
        <div key={name} className={cn('flex items-baseline justify-between gap-2', wide && 'sm:block')}>
          <dt className="text-muted-fg">{name}</dt>
          <dd className="font-semibold tabular-nums text-fg">{value}</dd>
        </div>
      ))}
    </dl>
  );
}
