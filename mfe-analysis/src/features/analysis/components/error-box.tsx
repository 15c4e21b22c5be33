import { Button } from '@site/ui';
import type { AnalysisFailure } from '../../../lib/analysis-request';
import { describeFailure, type FailureContext } from '../lib/describe-failure';

const RAW_MAX = 600;

/**
 * The red error box (spec section 8): what happened and what to do, in one message per error code and right for the
 * form that sent it. The spec's 'Failed to analyze website: Analysis failed: {status} {body}' line stays in the box,
 * folded under 'Technical details': a server's JSON is for whoever helps, not the first thing a visitor reads.
 */
export function ErrorBox({ failure, onRetry, busy, context }: { failure: AnalysisFailure; onRetry: () => void; busy: boolean; context: FailureContext }) {
  const words = describeFailure(failure, context);
  const raw = failure.display.length > RAW_MAX ? `${failure.display.slice(0, RAW_MAX)}…` : failure.display;
  return (
    <div role="alert" className="rounded-2xl border border-red-300 bg-red-50 p-5 text-red-900 dark:border-red-800 dark:bg-red-950 dark:text-red-100 print:hidden">
      <p className="font-semibold">{words.title}</p>
      <p className="mt-1 text-sm">{words.advice}</p>
      <details className="mt-3 text-xs">
        <summary className="cursor-pointer font-medium underline underline-offset-2">Technical details</summary>
        <p className="mt-2 break-words font-mono opacity-90">{raw}</p>
      </details>
      {words.retryable && (
        <Button variant="danger" size="sm" className="mt-4" onClick={onRetry} disabled={busy}>
          Try again
        </Button>
      )}
    </div>
  );
}
