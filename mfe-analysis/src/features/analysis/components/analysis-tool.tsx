import { useDeferredValue, useEffect, useRef } from 'react';
import { Card, Container } from '@site/ui';
import { preloadAnalysisContracts } from '../../../lib/analysis-request';
import { useAnalysisStore } from '../hooks/use-analysis-store';
import { AnalysisResult, preloadScorecard } from './analysis-result';
import { ErrorBox } from './error-box';
import { ModeCard } from './mode-card';
import { ProgressPanel } from './progress-panel';
import { SmbForm } from './smb-form';
import { WebsiteForm } from './website-form';

/** The tool (anchor #analysis-tool): mode card, form, error box, progress panel, then the scorecard. */
export function AnalysisTool({ allowWebsite }: { allowWebsite: boolean }) {
  const mode = useAnalysisStore((s) => s.mode);
  const setMode = useAnalysisStore((s) => s.setMode);
  const isAnalyzing = useAnalysisStore((s) => s.isAnalyzing);
  const step = useAnalysisStore((s) => s.step);
  const result = useAnalysisStore((s) => s.result);
  const error = useAnalysisStore((s) => s.error);
  const retry = useAnalysisStore((s) => s.retry);
  const lastRequest = useAnalysisStore((s) => s.lastRequest);
  // The press of Analyze paints the form's busy button first; the progress panel follows in a render of its own.
  const showProgress = useDeferredValue(isAnalyzing) && isAnalyzing;
  const resultRef = useRef<HTMLDivElement>(null);
  const activeMode = allowWebsite ? mode : 'smb';

  // /free-analysis offers the SMB Scorecard only; a website mode chosen on /website-analysis does not follow.
  useEffect(() => {
    if (!allowWebsite && mode !== 'smb') setMode('smb');
  }, [allowWebsite, mode, setMode]);

  // A new result: bring it into view and give keyboard and screen-reader users its start.
  useEffect(() => {
    if (!result || !resultRef.current) return;
    resultRef.current.focus({ preventScroll: true });
    resultRef.current.scrollIntoView({ block: 'start' });
  }, [result]);

  const subject =
    lastRequest?.mode === 'website' ? lastRequest.input.url : lastRequest?.mode === 'smb' ? lastRequest.input.businessName : 'your business';
  // The scorecard's code, and the contracts that check the answer, load when the visitor starts on the form (not on
  // first visit): ready when the answer is, and not evaluated inside the press of Analyze.
  const onStart = () => {
    preloadAnalysisContracts();
    void preloadScorecard().catch(() => undefined);
  };

  return (
    <section id="analysis-tool" aria-labelledby="analysis-tool-heading" className="scroll-mt-20 py-12 sm:py-16">
      <Container className="space-y-8">
        <Card className="print:hidden">
          <h2 id="analysis-tool-heading" className="text-2xl font-bold tracking-tight text-fg">
            {activeMode === 'website' ? 'Analyze a website' : 'Analyze your business'}
          </h2>
          <p className="mt-1 text-muted-fg">Free, no sign-up. The overall score is based on 6 key growth factors.</p>
          <div className="mt-6 space-y-6">
            <ModeCard mode={activeMode} onChange={setMode} allowWebsite={allowWebsite} />
            {activeMode === 'website' ? <WebsiteForm onStart={onStart} onIntent={onStart} /> : <SmbForm onStart={onStart} onIntent={onStart} />}
          </div>
        </Card>
        {error && <ErrorBox failure={error} context={lastRequest?.mode ?? activeMode} onRetry={() => void retry()} busy={isAnalyzing} />}
        {showProgress && <ProgressPanel step={step} subject={subject} />}
        {result && (
          <div ref={resultRef} tabIndex={-1} aria-label="Analysis result" role="region" className="scroll-mt-20 focus:outline-none">
            <AnalysisResult result={result} onRetry={() => void retry()} />
          </div>
        )}
      </Container>
    </section>
  );
}
