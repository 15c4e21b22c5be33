import type { ReactNode } from 'react';
import { Button, ErrorBoundary } from '@site/ui';

/** The 'Scorecard Error' panel (spec section 8): shown instead of a scorecard that failed to render. */
export function ScorecardErrorPanel({ businessName, onRetry }: { businessName?: string | null; onRetry: () => void }) {
  return (
    <div role="alert" className="rounded-2xl border border-red-300 bg-red-50 p-6 text-red-900 screen-dark:border-red-800 screen-dark:bg-red-950 screen-dark:text-red-100">
      <h2 className="text-xl font-bold">Scorecard Error</h2>
      <p className="mt-2 font-medium">{businessName ? `Error analyzing ${businessName}` : 'Error analyzing business'}</p>
      <p className="mt-4 text-sm">Likely causes:</p>
      <ul className="mt-1 list-disc space-y-1 pl-6 text-sm">
        <li>Temporary API service issues</li>
        <li>Network connectivity problems</li>
        <li>Data processing errors</li>
      </ul>
      <div className="mt-5 flex flex-wrap gap-3">
        <Button onClick={onRetry}>Retry Analysis</Button>
        <Button variant="secondary" onClick={() => window.location.reload()}>
          Refresh Page
        </Button>
      </div>
      <p className="mt-4 text-sm">If the problem persists, please contact support</p>
    </div>
  );
}

function nameOf(result: unknown): string | null {
  try {
    const info = (result as { businessInfo?: { businessName?: unknown } } | null)?.businessInfo;
    return typeof info?.businessName === 'string' && info.businessName.trim() ? info.businessName : null;
  } catch {
    return null;
  }
}

/**
 * Catches a render crash of the scorecard so a broken result never blanks the page. 'Retry Analysis' resets the
 * panel and calls `onRetry` (the tool runs the analysis again); a new result resets it too.
 */
export function ScorecardErrorBoundary({ result, onRetry, children }: { result: unknown; onRetry?: () => void; children: ReactNode }) {
  return (
    <ErrorBoundary
      resetKeys={[result]}
      fallback={({ reset }) => (
        <ScorecardErrorPanel
          businessName={nameOf(result)}
          onRetry={() => {
            reset();
            onRetry?.();
          }}
        />
      )}
    >
      {children}
    </ErrorBoundary>
  );
}
