import type { AiAssessment } from '@site/contracts/analysis';
import { cn } from '@site/ui';
import { strengthTone, TONE_BADGE, TONE_BAR } from './score-tone';

/* Pieces of the AI assessment shared by the collapsible panels and the two modals. */

export const ANALYZING_SIGNALS = 'Analyzing automation signals...';
export const GENERATING_RECOMMENDATIONS = 'Generating detailed recommendations...';

type A = Partial<AiAssessment> | null;
const list = <T,>(v: T[] | undefined | null): T[] => (Array.isArray(v) ? v : []);

const PRIORITY_STYLE: Record<string, string> = {
  high: TONE_BADGE.red,
  medium: TONE_BADGE.yellow,
  low: TONE_BADGE.green,
};

export function PriorityBadge({ priority }: { priority: string }) {
  const key = priority.toLowerCase();
  return (
    <span className={cn('inline-flex rounded-full px-2 py-0.5 text-xs font-semibold', PRIORITY_STYLE[key] ?? TONE_BADGE.grey)}>
      {key.charAt(0).toUpperCase() + key.slice(1)} priority
    </span>
  );
}

export function OpportunitiesList({ ai }: { ai: A }) {
  const items = list(ai?.topOpportunities);
  if (items.length === 0) return <p className="text-sm text-muted-fg">{ANALYZING_SIGNALS}</p>;
  return (
    <ol className="list-decimal space-y-1.5 pl-5 text-sm text-fg">
      {items.map((o) => (
        <li key={o}>{o}</li>
      ))}
    </ol>
  );
}

export function RoadmapList({ ai }: { ai: A }) {
  const phases = list(ai?.implementationRoadmap);
  if (phases.length === 0) return <p className="text-sm text-muted-fg">{GENERATING_RECOMMENDATIONS}</p>;
  return (
    <ol className="space-y-3">
      {phases.map((p, i) => (
        <li key={p.phase} className="flex gap-3">
          <span aria-hidden="true" className="flex size-7 shrink-0 items-center justify-center rounded-full bg-primary text-sm font-bold text-primary-fg">
            {i + 1}
          </span>
          <div className="min-w-0 text-sm">
            <p className="font-semibold text-fg">{p.phase}</p>
            <p className="mt-0.5 flex flex-wrap items-center gap-2 text-muted-fg">
              <span>{p.timeline}</span>
              <PriorityBadge priority={p.priority} />
            </p>
            <p className="mt-1 text-fg">{p.description}</p>
          </div>
        </li>
      ))}
    </ol>
  );
}

export function BusinessTypeAnalysis({ ai }: { ai: A }) {
  const bta = ai?.businessTypeAnalysis;
  return (
    <dl className="grid grid-cols-2 gap-3 text-sm">
      <div className="rounded-lg bg-surface-muted p-3">
        <dt className="text-muted-fg">Detected type</dt>
        <dd className="font-semibold text-fg">{bta?.detectedType || 'Service Business'}</dd>
      </div>
      <div className="rounded-lg bg-surface-muted p-3">
        <dt className="text-muted-fg">Automation potential</dt>
        <dd className="font-semibold text-fg">{bta?.automationPotential || 'High'}</dd>
      </div>
    </dl>
  );
}

/** Signal strength 0-10 with the spec's colours: 8+ green, 5+ yellow, below red. */
export function SignalsList({ ai }: { ai: A }) {
  const signals = list(ai?.automationSignals);
  if (signals.length === 0) return <p className="text-sm text-muted-fg">{ANALYZING_SIGNALS}</p>;
  return (
    <ul className="space-y-3">
      {signals.map((s) => {
        const tone = strengthTone(s.strength);
        return (
          <li key={s.category} className="text-sm">
            <div className="flex items-center justify-between gap-2">
              <span className="font-medium text-fg">{s.category}</span>
              <span data-tone={tone} className={cn('rounded-full px-2 py-0.5 text-xs font-semibold tabular-nums', TONE_BADGE[tone])}>
                {s.strength}/10
              </span>
            </div>
            <span className="mt-1 block h-2 overflow-hidden rounded-full bg-surface-muted" aria-hidden="true">
              <span className={cn('block h-full rounded-full', TONE_BAR[tone])} style={{ width: `${Math.min(100, Math.max(0, s.strength * 10))}%` }} />
            </span>
            {s.evidence && <p className="mt-1 text-xs text-muted-fg">{s.evidence}</p>}
          </li>
        );
      })}
    </ul>
  );
}

const usd = (n: number) => `$${Math.round(n).toLocaleString('en-US')}`;

export function DetailedRecommendations({ ai }: { ai: A }) {
  const recs = list(ai?.detailedRecommendations);
  if (recs.length === 0) return <p className="text-sm text-muted-fg">{GENERATING_RECOMMENDATIONS}</p>;
  return (
    <ul className="space-y-3">
      {recs.map((r) => (
        <li key={r.title} className="rounded-lg border border-border bg-bg p-3 text-sm">
          <p className="font-semibold text-fg">{r.title}</p>
          <p className="mt-1 text-fg">{r.description}</p>
          <p className="mt-2 flex flex-wrap gap-x-4 gap-y-1 text-xs text-muted-fg">
            <span>Impact: {r.impact}</span>
            <span>Effort: {r.effort}</span>
            <span>Timeline: {r.timeline}</span>
            {typeof r.monthlySavings === 'number' && <span>About {usd(r.monthlySavings)}/month</span>}
          </p>
        </li>
      ))}
    </ul>
  );
}
