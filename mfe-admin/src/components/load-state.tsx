import { Button } from '@site/ui';

/** Placeholder rows while a panel loads; announced once to screen readers. */
export function LoadingRows({ label, rows = 3 }: { label: string; rows?: number }) {
  return (
    <div role="status" aria-live="polite" className="animate-pulse space-y-3">
      <span className="sr-only">{label}</span>
      {Array.from({ length: rows }, (_, i) => (
        <div key={i} className="h-10 rounded-lg bg-surface-muted" />
      ))}
    </div>
  );
}

/** A failed load: what failed, the reason, and a way to try again. */
export function LoadFailed({ title, message, onRetry }: { title: string; message?: string; onRetry: () => void }) {
  return (
    <div role="alert" className="rounded-xl border border-danger/40 bg-danger-soft p-4 text-sm text-fg">
      <p className="font-semibold">{title}</p>
      {message && <p className="mt-1 text-muted-fg">{message}</p>}
      <Button variant="secondary" size="sm" className="mt-3" onClick={onRetry}>
        Try again
      </Button>
    </div>
  );
}
