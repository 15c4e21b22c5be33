import { DEFAULT_TOTAL_POSSIBLE_POINTS, FACTOR_KEYS, MIN_MEASURED_FACTORS } from '@site/contracts/analysis-rules';
import type { FactorKey } from '@site/contracts/analysis';
import { cn } from '@site/ui';
import { FACTOR_TITLES, formatDate, type ScorecardData, type ScoreView } from './normalize-result';
import { ChangeChip, ScoreBadge } from './score-badge';
import { scoreTone, TONE_BAR, TONE_TEXT } from './score-tone';
import { changeSince, comparableScore } from './what-changed';

/** 'Based on 6 key growth factors' (spec), or on how many of them when some could not be measured. */
export function basedOnText(measured: number): string {
  return measured === FACTOR_KEYS.length ? `Based on ${measured} key growth factors` : `Based on ${measured} of ${FACTOR_KEYS.length} key growth factors`;
}

/** A factor tile's number and bar; a factor that was not measured shows neither (a 0 would read as failing). */
function TileScore({ s }: { s: ScoreView }) {
  const t = scoreTone(s.score, s.verified, s.sample);
  if (!s.verified) {
    return (
      <span className="mt-1 flex items-baseline gap-2">
        <ScoreBadge score={s.score} label={s.label} verified={false} />
      </span>
    );
  }
  return (
    <>
      <span className="mt-1 flex items-baseline gap-2">
        <span className={cn('text-2xl font-bold tabular-nums', TONE_TEXT[t])}>
          {s.score}{' '}
          <span className="sr-only">out of 100</span>
        </span>{' '}
        <ScoreBadge score={s.score} label={s.label} verified sample={s.sample} />
      </span>
      <span className="mt-2 block h-1.5 overflow-hidden rounded-full bg-surface-muted" aria-hidden="true">
        <span className={cn('block h-full rounded-full', TONE_BAR[t])} style={{ width: `${s.score}%` }} />
      </span>
    </>
  );
}

/** Overall score out of 100 and the six factor scores; a factor tile takes the reader to its detail card. */
export function ScoreOverview({ data, onFactorClick }: { data: ScorecardData; onFactorClick: (key: FactorKey) => void }) {
  const overall = data.scores.overall;
  const tone = scoreTone(overall.score, overall.verified, overall.sample);
  const dataPoints = overall.evidence?.dataPoints ?? 0;
  const possible = overall.evidence?.totalPossiblePoints ?? DEFAULT_TOTAL_POSSIBLE_POINTS;
  const overallChange = changeSince(data.previous, 'overall', comparableScore(overall));
  return (
    <section aria-labelledby="overall-score-heading" className="rounded-2xl border border-border bg-surface p-5 shadow-sm sm:p-6">
      <div className="grid gap-6 lg:grid-cols-[16rem_1fr]">
        <div className="flex flex-col items-center justify-center text-center">
          <h3 id="overall-score-heading" className="text-base font-semibold text-fg">
            Overall Score
          </h3>
          {overall.verified ? (
            <p className="mt-2" data-testid="overall-score">
              <span className={cn('text-6xl font-extrabold tabular-nums', TONE_TEXT[tone])}>{overall.score}</span>
              <span className="text-xl font-semibold text-muted-fg">/100</span>
            </p>
          ) : (
            <p className="mt-2 text-2xl font-bold text-muted-fg" data-testid="overall-score">
              No overall score
            </p>
          )}
          <div className="mt-2 flex items-center gap-2">
            <ScoreBadge score={overall.score} label={overall.label} verified={overall.verified} sample={overall.sample} />
            {overallChange && <ChangeChip change={overallChange} />}
          </div>
          {overall.sample && (
            <p className="mt-3 text-sm font-medium text-amber-900 screen-dark:text-amber-200">
              Built from sample data, so it is an example, not {data.businessName}&rsquo;s real standing.
            </p>
          )}
          {!overall.verified && !overall.missing && (
            <p className="mt-3 text-sm text-fg">
              Only {data.factorsMeasured} of {FACTOR_KEYS.length} factors could be measured; an overall grade needs at least {MIN_MEASURED_FACTORS}.
            </p>
          )}
          <p className="mt-3 text-sm text-muted-fg">{basedOnText(overall.missing ? FACTOR_KEYS.length : data.factorsMeasured)}</p>
          <p className="mt-1 text-xs text-muted-fg">
            {dataPoints} of {possible} points from verified data
          </p>
        </div>
        <div>
          {data.previous && (
            <p className="mb-3 text-sm text-muted-fg">
              Changes since your previous report of{' '}
              <time dateTime={data.previous.analyzedAt}>{formatDate(data.previous.analyzedAt)}</time>
            </p>
          )}
          <ul className="grid gap-3 sm:grid-cols-2 xl:grid-cols-3">
            {FACTOR_KEYS.map((key) => {
              const s = data.scores[key];
              const change = changeSince(data.previous, key, comparableScore(s));
              return (
                <li key={key}>
                  <button
                    type="button"
                    data-print-keep=""
                    onClick={() => onFactorClick(key)}
                    className="w-full rounded-xl border border-border bg-bg p-3 text-left transition-colors hover:bg-surface-muted"
                  >
                    <span className="flex items-center justify-between gap-2">
                      <span className="text-sm font-semibold text-fg">{FACTOR_TITLES[key]}</span>{' '}
                      {change && <ChangeChip change={change} />}
                    </span>{' '}
                    <TileScore s={s} />
                  </button>
                </li>
              );
            })}
          </ul>
        </div>
      </div>
    </section>
  );
}
