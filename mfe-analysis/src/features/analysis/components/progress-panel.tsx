import { cn } from '@site/ui';
import { PROGRESS_STEPS, STATED_DURATION, progressPercent } from '../data/progress-steps';

type StepState = 'completed' | 'active' | 'pending';
const WORDS: Record<StepState, string> = { completed: 'Done', active: 'In progress', pending: 'Waiting' };

/** The progress panel (spec section 4): seven steps, each completed, active or pending; percent = step / 7. */
export function ProgressPanel({ step, subject }: { step: number; subject: string }) {
  const percent = progressPercent(step);
  const current = PROGRESS_STEPS[Math.min(step, PROGRESS_STEPS.length - 1)];
  return (
    <section aria-labelledby="analysis-progress-heading" className="rounded-2xl border border-border bg-surface p-6 shadow-sm print:hidden">
      <h3 id="analysis-progress-heading" className="text-lg font-semibold text-fg">
        Analyzing {subject}
      </h3>
      <p className="mt-1 text-sm text-muted-fg">Analysis typically takes {STATED_DURATION}. You can keep this page open while we work.</p>
      <div className="mt-5 flex items-center gap-3">
        <div
          role="progressbar"
          aria-label="Analysis progress"
          aria-valuemin={0}
          aria-valuemax={100}
          aria-valuenow={percent}
          aria-valuetext={`${percent}%: ${current}`}
          className="h-3 flex-1 overflow-hidden rounded-full bg-surface-muted"
        >
          <div className="h-full rounded-full bg-primary transition-[width] duration-500 motion-reduce:transition-none" style={{ width: `${percent}%` }} />
        </div>
        <span className="w-12 text-right text-sm font-semibold tabular-nums text-fg" aria-hidden="true">
          {percent}%
        </span>
      </div>
      <ol className="mt-5 grid gap-2 sm:grid-cols-2">
        {PROGRESS_STEPS.map((label, i) => {
          const state: StepState = i < step ? 'completed' : i === step ? 'active' : 'pending';
          return (
            <li key={label} data-state={state} aria-current={state === 'active' ? 'step' : undefined} className="flex items-center gap-3 text-sm">
              <span
                aria-hidden="true"
                className={cn(
                  'flex h-6 w-6 shrink-0 items-center justify-center rounded-full border text-xs font-bold',
                  state === 'completed' && 'border-accent bg-accent-soft text-fg',
                  state === 'active' && 'border-primary bg-primary-soft text-primary-soft-fg motion-safe:animate-pulse',
                  state === 'pending' && 'border-border text-muted-fg',
                )}
              >
                {state === 'completed' ? '✓' : i + 1}
              </span>
              <span className={cn('flex-1', state === 'pending' ? 'text-muted-fg' : 'font-medium text-fg')}>{label}</span>
              <span className="text-xs text-muted-fg">{WORDS[state]}</span>
            </li>
          );
        })}
      </ol>
    </section>
  );
}
