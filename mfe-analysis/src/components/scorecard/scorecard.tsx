import { lazy, useMemo, useRef, type ReactNode } from 'react';
import type { AnalysisResponse, FactorKey, Recommendation } from '@site/contracts/analysis';
import { cn, track } from '@site/ui';
import { normalizeResult, usd, type ScorecardData } from './normalize-result';
import { ScorecardErrorBoundary } from './scorecard-error-boundary';
import { ScorecardHeader } from './scorecard-header';
import { ScoreOverview } from './score-overview';
import { FactorCard } from './factor-card';
import { CompetitiveDetails, ContentQualityDetails, VisibilityDetails, WebsiteTrustDetails } from './factor-details';
import { ActionPlan } from './action-plan';
import { AiPanels } from './ai-panels';
import { ANALYZING_SIGNALS, GENERATING_RECOMMENDATIONS } from './ai-parts';
import { ReportDialog } from './report-dialog';
import { SampleMark } from './sample-mark';
import { savingsSplit } from './savings-split';
import { scoreTone, TONE_TEXT } from './score-tone';
import { useScorecardTracking } from './use-scorecard-tracking';

const AiReportContent = lazy(() => import('./ai-report-content'));
const ImplementationGuideContent = lazy(() => import('./implementation-guide-content'));

/** An answer of the contract, or the raw object of an answer that does not match it (rendered with defaults). */
export type ScorecardResult = AnalysisResponse | Record<string, unknown>;

export interface ScorecardProps {
  /** The analysis answer; partial or older answers (a raw object) get the spec's defaults. */
  result: ScorecardResult;
  /** Called by the error panel's 'Retry Analysis' (run the analysis again). */
  onRetry?: () => void;
  /** Buttons for the header (Copy link, Print, Calculate your savings), filled by the page. */
  reportActions?: ReactNode;
}

/** The full scorecard of one analysis, inside its own error boundary (a broken result never blanks the page). */
export function Scorecard({ result, onRetry, reportActions }: ScorecardProps) {
  return (
    <ScorecardErrorBoundary result={result} onRetry={onRetry}>
      <ScorecardView result={result} reportActions={reportActions} />
    </ScorecardErrorBoundary>
  );
}

const click = (props: Record<string, string | number | boolean | null>) => track('scorecard_click', props);

function AiReadinessCard({ data }: { data: ScorecardData }) {
  const ai = data.aiAssessment;
  const readiness = typeof ai?.overallReadiness === 'number' ? ai.overallReadiness : null;
  const opportunities = Array.isArray(ai?.topOpportunities) ? ai.topOpportunities.slice(0, 3) : [];
  // The total counts every task; the list shows the top ones: one line says what the rest is, in figures that add up.
  const split = savingsSplit(ai, opportunities);
  return (
    <section aria-labelledby="ai-readiness-heading" className="flex flex-col rounded-2xl border border-border bg-surface p-5 shadow-sm sm:p-6">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h3 id="ai-readiness-heading" className="text-lg font-bold text-fg">
          AI Readiness
        </h3>
        {data.assessmentIsSample && readiness !== null && <SampleMark />}
      </div>
      {readiness === null ? (
        <p className="mt-2 text-sm text-muted-fg">{ANALYZING_SIGNALS}</p>
      ) : (
        <>
          <div className="mt-2 flex flex-wrap items-baseline gap-x-6 gap-y-2">
            <p>
              <span className={cn('text-4xl font-extrabold tabular-nums', TONE_TEXT[scoreTone(readiness, true, data.assessmentIsSample)])}>{readiness}</span>
              <span className="text-muted-fg">/100 ready for automation</span>
            </p>
            {typeof ai?.totalPotentialSavings === 'number' && (
              <p>
                <span className="text-2xl font-bold text-fg">{usd(ai.totalPotentialSavings)}</span>
                <span className="text-muted-fg"> potential savings per month</span>
              </p>
            )}
          </div>
          {split && typeof ai?.totalPotentialSavings === 'number' && (
            <p className="mt-1 text-sm text-muted-fg">
              Of the {usd(ai.totalPotentialSavings)}: {usd(split.listed)} from the {split.listedCount === 1 ? 'opportunity' : `${split.listedCount} opportunities`} below,{' '}
              {usd(split.rest)} from {split.restCount === 1 ? '1 more task' : `${split.restCount} more tasks`} in the full AI report.
            </p>
          )}
          {data.assessmentIsSample && (
            <p className="mt-2 text-sm font-medium text-amber-900 screen-dark:text-amber-200">
              Readiness, hours and savings here rest on sample data: an example of what the analysis shows, not figures for {data.businessName}.
            </p>
          )}
          {opportunities.length > 0 && (
            <ul className="mt-3 list-disc space-y-1 pl-5 text-sm text-fg">
              {opportunities.map((o) => (
                <li key={o}>{o}</li>
              ))}
            </ul>
          )}
        </>
      )}
      <div className="mt-4">
        <ReportDialog
          title="AI Automation Assessment Report"
          description={`Where automation would save ${data.businessName} time and money, and what it rests on.`}
          triggerLabel="View Full AI Report"
          onOpen={() => click({ target: 'ai_report' })}
        >
          <AiReportContent data={data} />
        </ReportDialog>
      </div>
    </section>
  );
}

function RoadmapCard({ data }: { data: ScorecardData }) {
  const phases = Array.isArray(data.aiAssessment?.implementationRoadmap) ? data.aiAssessment.implementationRoadmap : [];
  return (
    <section aria-labelledby="roadmap-heading" className="flex flex-col rounded-2xl border border-border bg-surface p-5 shadow-sm sm:p-6">
      <h3 id="roadmap-heading" className="text-lg font-bold text-fg">
        AI Implementation Roadmap
      </h3>
      {phases.length === 0 ? (
        <p className="mt-2 text-sm text-muted-fg">{GENERATING_RECOMMENDATIONS}</p>
      ) : (
        <ol className="mt-3 space-y-2 text-sm">
          {phases.map((p) => (
            <li key={p.phase} className="flex flex-wrap justify-between gap-x-3">
              <span className="font-medium text-fg">{p.phase}</span>
              <span className="text-muted-fg">{p.timeline}</span>
            </li>
          ))}
        </ol>
      )}
      <div className="mt-4">
        <ReportDialog
          title="AI Implementation Guide"
          description={`How ${data.businessName} can put the roadmap into practice, phase by phase.`}
          triggerLabel="View Implementation Guide"
          triggerVariant="secondary"
          onOpen={() => click({ target: 'implementation_guide' })}
        >
          <ImplementationGuideContent data={data} />
        </ReportDialog>
      </div>
    </section>
  );
}

function ScorecardView({ result, reportActions }: { result: ScorecardResult; reportActions?: ReactNode }) {
  const data = useMemo(() => normalizeResult(result), [result]);
  const recommendationsRef = useRef<HTMLElement>(null);
  useScorecardTracking(data, recommendationsRef);

  const onFactorClick = (key: FactorKey) => {
    click({ target: 'factor', factor: key });
    const card = document.getElementById(`factor-${key}`);
    card?.scrollIntoView?.({ behavior: window.matchMedia?.('(prefers-reduced-motion: reduce)').matches ? 'auto' : 'smooth', block: 'start' });
    card?.focus({ preventScroll: true });
  };
  const onEvidenceToggle = (factor: FactorKey, open: boolean) => click({ target: 'evidence', factor, open });
  const onRecommendationClick = (rec: Recommendation) =>
    track('recommendation_click', { reportId: data.id, title: rec.title.slice(0, 200), priority: rec.priority, category: rec.category });
  const card = { data, onEvidenceToggle };

  return (
    <article aria-label={`Scorecard for ${data.businessName}`} className="scorecard-report space-y-6" data-report-id={data.id ?? undefined}>
      <ScorecardHeader data={data} actions={reportActions} />
      <ScoreOverview data={data} onFactorClick={onFactorClick} />
      <div className="grid gap-6 lg:grid-cols-2">
        <AiReadinessCard data={data} />
        <RoadmapCard data={data} />
      </div>
      <div className="grid gap-6 lg:grid-cols-2">
        <FactorCard factor="visibility" {...card}>
          <VisibilityDetails score={data.scores.visibility} onPlatformOpen={(platform) => click({ target: 'platform', platform })} />
        </FactorCard>
        <FactorCard factor="reputation" {...card} />
        <FactorCard factor="profileQuality" {...card} />
        <FactorCard factor="websiteTrust" {...card}>
          <WebsiteTrustDetails score={data.scores.websiteTrust} />
        </FactorCard>
        <FactorCard factor="contentQuality" hideInsights {...card}>
          <ContentQualityDetails score={data.scores.contentQuality} />
        </FactorCard>
        <FactorCard factor="competitiveIntelligence" hideInsights {...card}>
          <CompetitiveDetails score={data.scores.competitiveIntelligence} data={data} />
        </FactorCard>
      </div>
      <ActionPlan ref={recommendationsRef} recommendations={data.recommendations} onRecommendationClick={onRecommendationClick} />
      <AiPanels ai={data.aiAssessment} sample={data.assessmentIsSample} onToggle={(panel, open) => click({ target: 'panel', panel, open })} />
    </article>
  );
}
