import { Button } from '@site/ui';

/** Placeholder cards while the first list loads. */
export function GridSkeleton({ count = 3 }: { count?: number }) {
  return (
    <div role="status" aria-live="polite" className="grid grid-cols-1 gap-6 md:grid-cols-2 lg:grid-cols-3">
      <span className="sr-only">Loading articles…</span>
      {Array.from({ length: count }, (_, i) => (
        <div key={i} aria-hidden="true" className="animate-pulse overflow-hidden rounded-2xl border border-border bg-surface">
          <div className="aspect-[40/21] bg-surface-muted" />
          <div className="space-y-3 p-6">
            <div className="h-4 w-1/3 rounded bg-surface-muted" />
            <div className="h-6 w-5/6 rounded bg-surface-muted" />
            <div className="h-4 w-full rounded bg-surface-muted" />
            <div className="h-4 w-2/3 rounded bg-surface-muted" />
          </div>
        </div>
      ))}
    </div>
  );
}

/** An API failure the reader can retry. */
export function LoadError({ message, onRetry, title = 'We could not load the articles' }: { message: string; onRetry: () => void; title?: string }) {
  return (
    <div role="alert" className="rounded-2xl border border-danger/40 bg-danger-soft p-6 text-center">
      <p className="font-semibold text-fg">{title}</p>
      <p className="mt-1 text-sm text-muted-fg">{message}</p>
      <Button variant="secondary" className="mt-4" onClick={onRetry}>
        Try again
      </Button>
    </div>
  );
}

/** An empty state with a heading and an optional action. */
export function EmptyState({ title, children }: { title: string; children?: React.ReactNode }) {
  return (
    <div className="rounded-2xl border border-dashed border-border bg-surface px-6 py-14 text-center">
      <h2 className="text-xl font-bold text-fg">{title}</h2>
      {children && <div className="mx-auto mt-2 max-w-md text-muted-fg">{children}</div>}
    </div>
  );
}

/**
 * Below a list with further pages: loads the next one. The new cards appear above and focus stays on the
 * button (aria-disabled rather than disabled, which would drop the keyboard focus while loading).
 */
export function LoadMore({ loading, remaining, atLeast = false, onClick }: { loading: boolean; remaining: number; atLeast?: boolean; onClick: () => void }) {
  return (
    <div className="mt-10 flex justify-center">
      <Button variant="secondary" size="lg" onClick={loading ? undefined : onClick} aria-disabled={loading}>
        {loading ? 'Loading more articles…' : remaining > 0 ? `Load more articles (${remaining}${atLeast ? '+' : ''} more)` : 'Load more articles'}
      </Button>
    </div>
  );
}
