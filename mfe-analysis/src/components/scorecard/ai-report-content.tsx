import { FACTOR_KEYS } from '@site/contracts/analysis-rules';
import { FACTOR_TITLES, usd, type ScorecardData } from './normalize-result';
import { SampleMark } from './sample-mark';
import { ANALYZING_SIGNALS, BusinessTypeAnalysis, DetailedRecommendations, OpportunitiesList, PriorityBadge, SignalsList } from './ai-parts';

/** Body of the 'AI Automation Assessment Report' modal (lazy-loaded). */
export default function AiReportContent({ data }: { data: ScorecardData }) {
  const ai = data.aiAssessment;
  const breakdown = Array.isArray(ai?.savingsBreakdown) ? ai.savingsBreakdown : [];
  return (
    <div className="space-y-6">
      <section aria-labelledby="ai-report-summary">
        <h3 id="ai-report-summary" className="flex flex-wrap items-center gap-2 text-lg font-semibold">
          Summary for {data.businessName}{data.assessmentIsSample && ' '}
          {data.assessmentIsSample && <SampleMark />}
        </h3>
        {ai && typeof ai.overallReadiness === 'number' ? (
          <p className="mt-1 text-sm">
            AI readiness <strong>{ai.overallReadiness}/100</strong>
            {typeof ai.totalPotentialSavings === 'number' && (
              <>
                {' '}
                · potential savings of about <strong>{usd(ai.totalPotentialSavings)} per month</strong>
              </>
            )}
            .
          </p>
        ) : (
          <p className="mt-1 text-sm text-muted-fg">{ANALYZING_SIGNALS}</p>
        )}
        {(data.assessmentIsSample || data.mockSources.length > 0) && (
          <p className="mt-2 text-sm text-amber-800 screen-dark:text-amber-300">Parts of this report rest on simulated data; treat the figures as an example.</p>
        )}
      </section>

      {breakdown.length > 0 && (
        <section aria-labelledby="ai-report-savings">
          <h3 id="ai-report-savings" className="flex flex-wrap items-center gap-2 text-lg font-semibold">
            Where the savings come from{data.assessmentIsSample && ' '}
            {data.assessmentIsSample && <SampleMark />}
          </h3>
          <p className="mt-1 text-sm text-muted-fg">Priced like the ROI calculator: hours per week × 4.33 weeks × cost per hour × share automated.</p>
          <ul className="mt-2 space-y-2">
            {breakdown.map((b) => (
              <li key={b.task} className="rounded-lg border border-border bg-bg p-3 text-sm">
                <div className="flex flex-wrap justify-between gap-2">
                  <span className="font-semibold">{b.task}</span>
                  <span className="font-semibold tabular-nums">{usd(b.monthlySavings)}/month</span>
                </div>
                <p className="mt-1 text-muted-fg">
                  {b.hoursPerWeek} h/week at {usd(b.costPerHour)}/h, {b.efficiencyPercent}% automated
                </p>
              </li>
            ))}
          </ul>
        </section>
      )}

      <section aria-labelledby="ai-report-opps">
        <h3 id="ai-report-opps" className="text-lg font-semibold">
          Top automation opportunities
        </h3>
        <div className="mt-2">
          <OpportunitiesList ai={ai} />
        </div>
      </section>

      <section aria-labelledby="ai-report-type">
        <h3 id="ai-report-type" className="text-lg font-semibold">
          Business type analysis
        </h3>
        <div className="mt-2">
          <BusinessTypeAnalysis ai={ai} />
        </div>
      </section>

      <section aria-labelledby="ai-report-signals">
        <h3 id="ai-report-signals" className="text-lg font-semibold">
          Automation signals
        </h3>
        <div className="mt-2">
          <SignalsList ai={ai} />
        </div>
      </section>

      <section aria-labelledby="ai-report-factors">
        <h3 id="ai-report-factors" className="flex flex-wrap items-center gap-2 text-lg font-semibold">
          Automation per growth factor{data.assessmentIsSample && ' '}
          {data.assessmentIsSample && <SampleMark />}
        </h3>
        <ul className="mt-2 space-y-2">
          {FACTOR_KEYS.map((k) => {
            const e = data.scores[k].aiEnhancement;
            if (!e) return null;
            return (
              <li key={k} className="rounded-lg border border-border bg-bg p-3 text-sm">
                <div className="flex flex-wrap items-center justify-between gap-2">
                  <span className="font-semibold">{FACTOR_TITLES[k]}</span>
                  <PriorityBadge priority={e.priority} />
                </div>
                <p className="mt-1 text-muted-fg">
                  Automation potential {e.automationPotential}/100 · about {usd(e.estimatedSavings)}/month
                </p>
                {e.recommendations.length > 0 && (
                  <ul className="mt-1 list-disc pl-5">
                    {e.recommendations.map((r) => (
                      <li key={r}>{r}</li>
                    ))}
                  </ul>
                )}
              </li>
            );
          })}
        </ul>
      </section>

      <section aria-labelledby="ai-report-recs">
        <h3 id="ai-report-recs" className="text-lg font-semibold">
          Detailed recommendations
        </h3>
        <div className="mt-2">
          <DetailedRecommendations ai={ai} />
        </div>
      </section>
    </div>
  );
}
