import { sampleSourceLabel } from '@site/contracts/analysis-rules';
import type { CompetitiveStanding, PlatformEvidence } from '@site/contracts/analysis';
import { cn } from '@site/ui';
import type { ScorecardData, ScoreView } from './normalize-result';
import { PLATFORM_ORDER, PlatformEvidenceItem } from './platform-evidence';
import { InsightList } from './factor-card';
import { scoreTone, TONE_BADGE } from './score-tone';
import { SampleMark } from './sample-mark';
import { standingWords } from './standing-words';

/* The parts of the detail cards that differ per factor. */

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
export const MAX_TECHNOLOGIES = 5;

export function VisibilityDetails({ score, onPlatformOpen }: { score: ScoreView; onPlatformOpen?: (platform: string) => void }) {
  const details = isRecord(score.evidence?.details) ? score.evidence.details : {};
  const checks = isRecord(details.evidence) && isRecord(details.evidence.platformChecks) ? details.evidence.platformChecks : {};
  const pct = (v: unknown) => (typeof v === 'number' ? `${Math.round(v)}%` : 'Unknown');
  return (
    <div className="mt-4">
      <h4 className="text-sm font-semibold text-fg">Platform evidence</h4>
      <ul className="mt-2 space-y-2">
        {PLATFORM_ORDER.map((p) => (
          <PlatformEvidenceItem
            key={p.key}
            name={p.name}
            priority={p.priority}
            evidence={checks[p.key] as Partial<PlatformEvidence> | undefined}
            onOpen={() => onPlatformOpen?.(p.key)}
          />
        ))}
      </ul>
      <dl className="mt-3 grid grid-cols-2 gap-2 text-sm">
        <div className="rounded-lg bg-surface-muted p-2">
          <dt className="text-muted-fg">Citation consistency</dt>
          <dd className="flex flex-wrap items-center gap-x-2 gap-y-1 font-semibold text-fg">
            {pct(details.citationConsistency)}
            {details.isMockData === true && <SampleMark />}
          </dd>
        </div>
        <div className="rounded-lg bg-surface-muted p-2">
          <dt className="text-muted-fg">Local presence</dt>
          <dd className="flex flex-wrap items-center gap-x-2 gap-y-1 font-semibold text-fg">
            {pct(details.localPresence)}
            {details.isMockData === true && <SampleMark />}
          </dd>
        </div>
      </dl>
    </div>
  );
}

function GradedPanel({ title, graded }: { title: string; graded: { score: number; grade: string; source: string; isMockData?: boolean } }) {
  const sample = graded.isMockData === true;
  const tone = scoreTone(graded.score, true, sample);
  return (
    <div className="rounded-lg border border-border bg-bg p-3">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h4 className="text-sm font-semibold text-fg">{title}</h4>
        <span data-tone={tone} className={cn('whitespace-nowrap rounded-full px-2 py-0.5 text-xs font-semibold', TONE_BADGE[tone])}>
          {graded.score}/100 · Grade {graded.grade}
          {sample && ' · sample data'}
        </span>
      </div>
      <p className="mt-1 text-xs text-muted-fg">{sample ? sampleSourceLabel(graded.source) : graded.source}</p>
    </div>
  );
}

/** Performance and security panels only when their score is above 0; at most 5 technologies. */
export function WebsiteTrustDetails({ score }: { score: ScoreView }) {
  const ev = score.evidence;
  const perf = ev?.performance;
  const sec = ev?.security;
  const techs = Array.isArray(ev?.technologies) ? ev.technologies.filter((t) => isRecord(t) && typeof t.name === 'string') : [];
  const url = ev?.pageInfo?.url;
  const showPerf = !!perf && typeof perf.score === 'number' && perf.score > 0;
  const showSec = !!sec && typeof sec.score === 'number' && sec.score > 0;
  if (!showPerf && !showSec && techs.length === 0 && !url) return null;
  return (
    <div className="mt-4 space-y-3">
      {/* An address that could not be read was tried, not analyzed. */}
      {url && <p className="break-all text-sm text-muted-fg">{score.verified ? 'Page analyzed' : 'Address tried'}: {url}</p>}
      {(showPerf || showSec) && (
        <div className="grid gap-3">
          {showPerf && <GradedPanel title="Performance" graded={perf} />}
          {showSec && <GradedPanel title="Security" graded={sec} />}
        </div>
      )}
      {techs.length > 0 && (
        <div>
          <h4 className="flex flex-wrap items-center gap-2 text-sm font-semibold text-fg">
            Technologies{techs.some((t) => t.isMockData === true) && ' '}
            {techs.some((t) => t.isMockData === true) && <SampleMark />}
          </h4>
          <ul className="mt-1 flex flex-wrap gap-1.5" aria-label="Technologies detected">
            {techs.slice(0, MAX_TECHNOLOGIES).map((t) => (
              <li key={t.name} className="rounded-full bg-surface-muted px-2.5 py-0.5 text-xs font-medium text-fg">
                {t.name}
              </li>
            ))}
          </ul>
        </div>
      )}
    </div>
  );
}

export function ContentQualityDetails({ score }: { score: ScoreView }) {
  if (score.verified && !score.missing) return <InsightList insights={score.insights} />;
  return (
    <>
      <p className="mt-3 text-sm font-medium text-muted-fg">Content analysis data not available</p>
      <InsightList insights={score.insights} />
    </>
  );
}

export function CompetitiveDetails({ score, data }: { score: ScoreView; data: ScorecardData }) {
  const details = isRecord(score.evidence?.details) ? score.evidence.details : null;
  const standing = details && isRecord(details.standing) ? (details.standing as CompetitiveStanding) : null;
  const hasLocation = data.location !== 'Unknown Location';
  const words = standingWords(standing, hasLocation ? data.location : null);
  // The standing is computed from simulated competitors (or a simulated profile): every figure in it is a sample.
  const sample = standing?.isMockData === true || score.sample;
  if (score.missing || (!score.verified && !words.reason && score.insights.length === 0)) {
    return <p className="mt-3 text-sm font-medium text-muted-fg">Competitive intelligence data not available</p>;
  }
  return (
    <>
      {words.rating ? (
        <div className={cn('mt-3 rounded-lg p-3', sample ? 'border border-dashed border-amber-400 bg-surface-muted text-fg screen-dark:border-amber-600' : 'bg-primary-soft text-primary-soft-fg')}>
          <h4 className="flex flex-wrap items-center justify-between gap-2 text-sm font-semibold">
            Local standing{sample && ' '}
            {sample && <SampleMark />}
          </h4>
          <p className="mt-1 text-base font-semibold">
            {words.rating}
            {sample && ' (sample data)'}
          </p>
          {words.reviews && (
            <p className="text-sm">
              {words.reviews}
              {sample && ' (sample data)'}
            </p>
          )}
        </div>
      ) : (
        <div className="mt-3 rounded-lg bg-surface-muted p-3">
          {/* A counted score without a standing (e.g. not on Google) has data: it only lacks the comparison. */}
          {!score.verified && <p className="text-sm font-medium text-muted-fg">Competitive intelligence data not available</p>}
          {words.reason && <p className={cn('text-sm text-fg', !score.verified && 'mt-1')}>{words.reason}</p>}
        </div>
      )}
      <InsightList insights={score.insights} />
    </>
  );
}
