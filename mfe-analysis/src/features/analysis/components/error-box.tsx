import { Button } from '@site/ui';
import type { AnalysisFailure } from '../../../lib/analysis-request';
import { describeFailure } from '../lib/describe-failure';

const RAW_MAX = 600;

/**
 * The red error box (spec section 8): the raw 'Failed to analyze website: Analysis failed: {status} {body}' line,
 * with above it what happened and what to do in plain words. The form above keeps everything typed.
 */
export function ErrorBox({ failure, onRetry, busy }: { failure: AnalysisFailure; onRetry: () => void; busy: boolean }) {
  const words = describeFailure(failure);
  const raw = failure.display.length > RAW_MAX ? `${failure.display.slice(0, RAW_MAX)}…` : failure.display;
  return (
    <div role="alert" className="rounded-2xl border border-red-300 bg-red-50 p-5 text-red-900 dark:border-red-800 dark:bg-red-950 dark:text-red-100 print:hidden">
      <p className="font-semibold">{words.title}</p>
      <p className="mt-1 text-sm">{words.advice}</p>
      <p className="mt-3 break-words font-mono text-xs opacity-90">
        {raw}
      </p>
      {words.retryable && (
        <Button variant="danger" size="sm" className="mt-4" onClick={onRetry} disabled={busy}>
          Try again
        </Button>
      )}
    </div>
  );
}
