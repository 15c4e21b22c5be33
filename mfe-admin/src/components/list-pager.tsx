import { Button } from '@site/ui';

/**
 * Newer / Older under a list (keyset pages: each answer says whether there is a page either way). While the other
 * page loads, the buttons wait (without losing the keyboard focus) and say so; the page on screen stays.
 */
export function ListPager({ label, newer, older, loading, onPage }: { label: string; newer: string | null; older: string | null; loading: boolean; onPage: (cursor: string) => void }) {
  if (!newer && !older) return null;
  return (
    <nav aria-label={label} aria-busy={loading || undefined} className="mt-4 flex items-center justify-between gap-2">
      <Button variant="secondary" size="sm" disabled={!newer} aria-disabled={loading || undefined} onClick={() => newer && !loading && onPage(newer)}>
        <span aria-hidden="true">←</span> Newer
      </Button>
      <span className="text-sm text-muted-fg" role="status">
        {loading ? 'Loading…' : ''}
      </span>
      <Button variant="secondary" size="sm" disabled={!older} aria-disabled={loading || undefined} onClick={() => older && !loading && onPage(older)}>
        Older <span aria-hidden="true">→</span>
      </Button>
    </nav>
  );
}
