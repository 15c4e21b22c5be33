import { useId } from 'react';
import { cn } from '@site/ui';
import type { AnalysisMode } from '../hooks/use-analysis-store';

const MODES: ReadonlyArray<{ mode: AnalysisMode; title: string; text: string }> = [
  {
    mode: 'smb',
    title: 'SMB Scorecard',
    text: 'Growth scorecard and AI readiness of a local business: listings, reviews, profile, website, content and competition.',
  },
  {
    mode: 'website',
    title: 'Website Analysis',
    text: 'Enter a website address only: we read the site itself for speed, security, SEO basics and content.',
  },
];

/**
 * The mode card. On /free-analysis it shows the SMB Scorecard as the one active mode (spec); on
 * /website-analysis the website mode can be chosen too (a radio group, so arrows and Space work).
 */
export function ModeCard({ mode, onChange, allowWebsite }: { mode: AnalysisMode; onChange: (mode: AnalysisMode) => void; allowWebsite: boolean }) {
  const id = useId();
  const modes = allowWebsite ? MODES : MODES.slice(0, 1);
  return (
    <fieldset className="print:hidden">
      <legend className="text-sm font-semibold text-fg">Analysis mode</legend>
      <div className={cn('mt-2 grid gap-3', allowWebsite && 'sm:grid-cols-2')}>
        {modes.map((m) => {
          const active = m.mode === mode;
          return (
            <label
              key={m.mode}
              className={cn(
                'relative flex cursor-pointer gap-3 rounded-xl border p-4 transition-colors has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-offset-2 has-[:focus-visible]:outline-ring',
                active ? 'border-primary bg-primary-soft/60' : 'border-border bg-surface hover:bg-surface-muted',
              )}
            >
              <input
                type="radio"
                name="analysis-mode"
                value={m.mode}
                checked={active}
                onChange={() => onChange(m.mode)}
                // Named by the title alone; the sentence is its description (a long name buries the choice).
                aria-labelledby={`${id}-${m.mode}-title`}
                aria-describedby={`${id}-${m.mode}-text`}
                className="mt-1 h-4 w-4 shrink-0 accent-[var(--primary)]"
              />
              <span className="min-w-0">
                <span className="flex flex-wrap items-center gap-2">
                  <span id={`${id}-${m.mode}-title`} className="font-semibold text-fg">
                    {m.title}
                  </span>
                  {active && (
                    <span className="rounded-full bg-accent-soft px-2 py-0.5 text-xs font-semibold text-fg">Active</span>
                  )}
                </span>
                <span id={`${id}-${m.mode}-text`} className="mt-1 block text-sm text-muted-fg">
                  {m.text}
                </span>
              </span>
            </label>
          );
        })}
      </div>
    </fieldset>
  );
}
