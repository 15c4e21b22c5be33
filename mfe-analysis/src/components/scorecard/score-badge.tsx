import { cn } from '@site/ui';
import { scoreTone, TONE_BADGE } from './score-tone';
import type { Change } from './what-changed';

/** The score's label in its colour (80/60/40 thresholds, grey when not measured, outlined amber for a sample). */
export function ScoreBadge({ score, label, verified, sample = false, className }: { score: number; label: string; verified: boolean; sample?: boolean; className?: string }) {
  const tone = scoreTone(score, verified, sample);
  return (
    <span data-tone={tone} className={cn('inline-flex items-center rounded-full px-2.5 py-0.5 text-xs font-semibold', TONE_BADGE[tone], className)}>
      {label}
    </span>
  );
}

/** '+4' / '−2' / 'no change' since the previous report. */
export function ChangeChip({ change }: { change: Change }) {
  const cls =
    change.delta > 0
      ? 'text-green-800 bg-green-50 screen-dark:text-green-300 screen-dark:bg-green-950'
      : change.delta < 0
        ? 'text-red-800 bg-red-50 screen-dark:text-red-300 screen-dark:bg-red-950'
        : 'text-slate-700 bg-slate-100 screen-dark:text-slate-300 screen-dark:bg-slate-800';
  return (
    <span className={cn('inline-flex items-center rounded px-1.5 py-0.5 text-xs font-semibold tabular-nums', cls)}>
      <span aria-hidden="true">{change.text}</span>
      <span className="sr-only">{change.spoken} since the previous report</span>
    </span>
  );
}
