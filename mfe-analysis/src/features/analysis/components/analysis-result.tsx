import { lazy, Suspense, useEffect } from 'react';
import type { AnalysisResult as Result } from '../../../lib/analysis-request';
import { ScorecardErrorBoundary } from '../../../components/scorecard/scorecard-error-boundary';
import { ANSWER_MARK } from '../hooks/use-analysis-store';
import { ReportActions } from './report-actions';

/** Loads the scorecard's code; called when an analysis starts so the chunk is there when the answer is. */
export const preloadScorecard = () => import('../../../components/scorecard/scorecard');
const Scorecard = lazy(() => preloadScorecard().then((m) => ({ default: m.Scorecard })));

export const RENDERED_MARK = 'analysis:scorecard-rendered';
export const ANSWER_TO_SCORECARD_MEASURE = 'analysis:answer-to-scorecard';

/** Marks the moment the scorecard is on screen (effects run once the Suspense boundary has committed it). */
function RenderedMark() {
  useEffect(() => {
    try {
      performance.mark(RENDERED_MARK);
      if (performance.getEntriesByName(ANSWER_MARK, 'mark').length) performance.measure(ANSWER_TO_SCORECARD_MEASURE, ANSWER_MARK, RENDERED_MARK);
    } catch {
      // Timing is a measurement aid only.
    }
  }, []);
  return null;
}

/** The scorecard of an answer, with the report actions; a chunk that fails to load shows the scorecard error panel. */
export function AnalysisResult({ result, onRetry }: { result: Result; onRetry: () => void }) {
  return (
    <ScorecardErrorBoundary result={result} onRetry={onRetry}>
      <Suspense
        fallback={
          <div role="status" className="min-h-[60vh] rounded-2xl border border-border bg-surface p-6 text-muted-fg">
            Preparing your scorecard…
          </div>
        }
      >
        <Scorecard result={result} onRetry={onRetry} reportActions={<ReportActions result={result} />} />
        <RenderedMark />
      </Suspense>
    </ScorecardErrorBoundary>
  );
}
