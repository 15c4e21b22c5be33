import { useCallback, useEffect, useRef, useState } from 'react';
import { useParams } from 'react-router-dom';
import { analysisResponseSchema } from '@site/contracts/analysis';
import { Button, ButtonLink, Container, useNotFoundSignal, usePageHead, type PageHead } from '@site/ui';
import { AnalysisFailure, type AnalysisResult as Result } from '../../../lib/analysis-request';
import { reportBusinessName, reportIsSample } from '../../../lib/report-links';
import { getAnalysis } from '../api/get-analysis';
import { reportHead } from '../data/report-head';
import { describeFailure } from '../lib/describe-failure';
import { useEngagementTracking } from '../hooks/use-engagement-tracking';
import { AnalysisResult } from './analysis-result';

type State =
  | { status: 'loading' }
  | { status: 'ready'; result: Result }
  | { status: 'not_found' }
  | { status: 'error'; failure: AnalysisFailure };

const REPORT_NOT_FOUND_HEAD: PageHead = { title: 'Report not found | Tri-Valley AI Automation', noindex: true };

/** The report the server embedded for this page (server rendering), when it is this id's. */
function embeddedReport(data: unknown, id: string | undefined): Result | null {
  const parsed = analysisResponseSchema.safeParse(data);
  return parsed.success && parsed.data.id === id ? parsed.data : null;
}

function formatDate(iso: unknown): string | null {
  if (typeof iso !== 'string') return null;
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? null : d.toLocaleDateString('en-US', { timeZone: 'America/Los_Angeles', year: 'numeric', month: 'long', day: 'numeric' });
}

/**
 * /free-analysis/report/:id: a stored report, shareable and printable; a clear state for an unknown id. The server
 * renders it with the report (`data`), or says it has none for this id (`notFound`, a 404): both are shown at once.
 */
export function ReportPage({ data, notFound = false }: { data?: unknown; notFound?: boolean }) {
  const { id } = useParams();
  const [attempt, setAttempt] = useState(0);
  const key = `${id ?? ''}#${attempt}`;
  // A report the server embedded for this id is shown at once; anything else is loaded for the current key.
  const embeddedKey = useRef(embeddedReport(data, id) || notFound ? key : null);
  const [loaded, setLoaded] = useState<{ key: string; state: State } | null>(() => {
    const embedded = embeddedReport(data, id);
    if (embedded) return { key, state: { status: 'ready', result: embedded } };
    return notFound ? { key, state: { status: 'not_found' } } : null;
  });
  const state: State = loaded?.key === key ? loaded.state : { status: 'loading' };
  useEngagementTracking('/free-analysis/report');

  useEffect(() => {
    if (embeddedKey.current === key) return;
    const controller = new AbortController();
    getAnalysis(id ?? '', controller.signal).then(
      (result) => setLoaded({ key, state: { status: 'ready', result } }),
      (error: unknown) => {
        if (controller.signal.aborted) return;
        if (error instanceof AnalysisFailure && error.status === 404) return setLoaded({ key, state: { status: 'not_found' } });
        const failure = error instanceof AnalysisFailure ? error : new AnalysisFailure(String(error), 0, '');
        setLoaded({ key, state: { status: 'error', failure } });
      },
    );
    return () => controller.abort();
  }, [id, key]);

  const reload = useCallback(() => setAttempt((n) => n + 1), []);
  const name = state.status === 'ready' ? reportBusinessName(state.result) : null;
  // The head the server wrote for this report (the route table's `head`), once the report is here.
  usePageHead(state.status === 'ready' ? reportHead({ id: id ?? '' }, state.result) : state.status === 'not_found' ? REPORT_NOT_FOUND_HEAD : undefined);
  useNotFoundSignal(state.status === 'not_found');

  if (state.status === 'loading')
    return (
      <div role="status" aria-live="polite" className="min-h-screen">
        <Container className="py-16 text-muted-fg">Loading the report…</Container>
      </div>
    );

  if (state.status === 'not_found')
    return (
      <Container className="flex min-h-[60vh] flex-col items-center justify-center py-24 text-center">
        <h1 className="text-3xl font-bold text-fg">Report not found</h1>
        <p className="mt-3 max-w-md text-muted-fg">
          There is no report at this address. Check that the link was copied in full, or run a new free analysis of your own business.
        </p>
        <ButtonLink to="/free-analysis" size="lg" className="mt-8">
          Run a free analysis
        </ButtonLink>
      </Container>
    );

  if (state.status === 'error') {
    const words = describeFailure(state.failure, 'report');
    return (
      <Container className="py-16">
        <h1 className="text-3xl font-bold text-fg">This report could not be loaded</h1>
        <div role="alert" className="mt-6 rounded-2xl border border-red-300 bg-red-50 p-5 text-red-900 dark:border-red-800 dark:bg-red-950 dark:text-red-100">
          <p className="font-semibold">{words.title}</p>
          <p className="mt-1 text-sm">{words.advice}</p>
        </div>
        <Button className="mt-6" onClick={reload}>
          Try again
        </Button>
      </Container>
    );
  }

  const analyzedOn = formatDate((state.result as { analyzedAt?: unknown }).analyzedAt);
  const sample = reportIsSample(state.result);
  return (
    <>
      <div className="border-b border-border bg-gradient-to-b from-primary-soft/60 to-bg print:border-0 print:bg-none">
        <Container className="py-10 sm:py-14">
          <p className="text-sm font-semibold uppercase tracking-wider text-primary dark:text-blue-300 print:hidden">Shared report</p>
          <h1 className="mt-2 text-3xl font-extrabold tracking-tight text-fg sm:text-4xl">
            {name ?? 'Business'} {sample ? 'sample scorecard' : 'growth scorecard'}
          </h1>
          {sample && (
            <p className="mt-2 font-medium text-amber-900 dark:text-amber-200">Built from sample data: its scores are an example, not this business&rsquo;s real standing.</p>
          )}
          <p className="mt-2 text-muted-fg print:hidden">
            A free growth scorecard by Tri-Valley AI Automation{analyzedOn ? `, from ${analyzedOn}` : ''}. Anyone with this link can open it.
          </p>
        </Container>
      </div>
      <Container className="space-y-8 py-10 sm:py-12">
        <AnalysisResult result={state.result} onRetry={reload} />
        <div className="rounded-2xl border border-border bg-surface p-6 text-center shadow-sm print:hidden">
          <h2 className="text-xl font-semibold text-fg">Want the scorecard of your own business?</h2>
          <p className="mt-2 text-muted-fg">Free, no sign-up: enter a business name and town.</p>
          <ButtonLink to="/free-analysis" className="mt-4">
            Run a free analysis
          </ButtonLink>
        </div>
      </Container>
    </>
  );
}
