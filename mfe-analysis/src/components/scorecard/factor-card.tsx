import type { ReactNode } from 'react';
import { INSIGHT_MARKERS } from '@site/contracts/analysis-rules';
import type { FactorKey } from '@site/contracts/analysis';
import { cn } from '@site/ui';
import { FACTOR_TITLES, type ScorecardData, type ScoreView } from './normalize-result';
import { ChangeChip, ScoreBadge } from './score-badge';
import { scoreTone, TONE_TEXT } from './score-tone';
import { EvidenceToggle, signalsOf } from './evidence-rows';
import { changeSince, comparableScore } from './what-changed';

// [marker in the data, word for screen readers, glyph shown (text symbols: emoji fonts are not everywhere), colour]
const MARKERS: Array<[string, string, string, string]> = [
  [INSIGHT_MARKERS.check, 'Good', '\u2713', 'text-green-700 screen-dark:text-green-400'],
  [INSIGHT_MARKERS.warning, 'Needs attention', '!', 'text-amber-700 screen-dark:text-amber-300'],
  [INSIGHT_MARKERS.cross, 'Problem', '\u2715', 'text-red-700 screen-dark:text-red-400'],
];

/** Insights with their leading marker (check, warning, cross) shown as an icon and named for screen readers. */
export function InsightList({ insights }: { insights: string[] }) {
  if (insights.length === 0) return null;
  return (
    <ul className="mt-3 space-y-1.5 text-sm">
      {insights.map((raw, i) => {
        const m = MARKERS.find(([mark]) => raw.startsWith(mark));
        const body = m ? raw.slice(m[0].length).trim() : raw;
        return (
          <li key={i} className="flex gap-2">
            <span aria-hidden="true" className={cn('w-5 shrink-0 text-center font-bold', m?.[3] ?? 'text-muted-fg')}>
              {m ? m[2] : '•'}
            </span>
            <span className="min-w-0 break-words text-fg">
              {m && <span className="sr-only">{m[1]}: </span>}
              {body}
            </span>
          </li>
        );
      })}
    </ul>
  );
}

/** What a sample or unmeasured factor is, under its title: never shown as the business's standing. */
function ScoreNote({ s }: { s: ScoreView }) {
  if (!s.verified) return null;
  if (!s.sample) return null;
  const signals = signalsOf(s).filter((x) => x.status !== 'unverified');
  const samplePoints = signals.filter((x) => x.status === 'simulated').reduce((n, x) => n + x.maxPoints, 0);
  const countedPoints = signals.reduce((n, x) => n + x.maxPoints, 0);
  const partly = samplePoints > 0 && samplePoints < countedPoints;
  return (
    <p className="mt-2 text-sm font-medium text-amber-900 screen-dark:text-amber-200">
      {partly
        ? `Sample score: ${samplePoints} of the ${countedPoints} points it counts come from sample data, so it is not your real standing.`
        : 'Sample score: built from sample data, so it is an example, not your real standing.'}
    </p>
  );
}

/** One of the six detail cards: title, score, insights, the factor's own panel and its evidence per point. */
export function FactorCard({
  factor,
  data,
  children,
  hideInsights,
  onEvidenceToggle,
}: {
  factor: FactorKey;
  data: ScorecardData;
  children?: ReactNode;
  hideInsights?: boolean;
  onEvidenceToggle?: (factor: FactorKey, open: boolean) => void;
}) {
  const s = data.scores[factor];
  const title = FACTOR_TITLES[factor];
  const change = changeSince(data.previous, factor, comparableScore(s));
  const headingId = `factor-${factor}-heading`;
  return (
    <section id={`factor-${factor}`} aria-labelledby={headingId} tabIndex={-1} className="scroll-mt-24 rounded-2xl border border-border bg-surface p-5 shadow-sm break-inside-avoid-page">
      <div className="flex flex-wrap items-start justify-between gap-2">
        <h3 id={headingId} className="text-lg font-bold text-fg">
          {title}
        </h3>
        <div className="flex items-center gap-2">
          {change && <ChangeChip change={change} />}
          {s.verified && (
            <span className={cn('text-2xl font-bold tabular-nums', TONE_TEXT[scoreTone(s.score, s.verified, s.sample)])}>
              {s.score}
              <span className="text-sm font-medium text-muted-fg">/100</span>
            </span>
          )}
          <ScoreBadge score={s.score} label={s.label} verified={s.verified} sample={s.sample} />
        </div>
      </div>
      <ScoreNote s={s} />
      {!hideInsights && <InsightList insights={s.insights} />}
      {children}
      <EvidenceToggle title={title} score={s} onToggle={(open) => onEvidenceToggle?.(factor, open)} />
    </section>
  );
}
