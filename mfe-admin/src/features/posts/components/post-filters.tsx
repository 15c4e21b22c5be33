import { useEffect, useState } from 'react';
import type { AdminPostList } from '@site/contracts/admin';
import { POST_STATUSES } from '@site/contracts/posts';
import { controlClass } from '../../../components/form-field';
import type { PostListParams } from '../hooks/use-post-list-params';
import { statusLabel } from '../lib/post-status';

/** The list's search box (the URL follows a moment after typing stops) and status filter with the count of each. */
export function PostFilters({ params, counts }: { params: PostListParams; counts: AdminPostList['counts'] | undefined }) {
  const { q, status, setQuery, setStatus } = params;
  const [search, setSearch] = useState(q);
  // The URL's search changed from outside the box (Clear filters, Back): the box shows it.
  const [shownQ, setShownQ] = useState(q);
  if (q !== shownQ) {
    setShownQ(q);
    if (q !== search.trim()) setSearch(q);
  }

  // One request per pause in typing, not per key.
  useEffect(() => {
    if (search.trim() === q) return;
    const timer = window.setTimeout(() => setQuery(search.trim()), 300);
    return () => window.clearTimeout(timer);
  }, [search, q, setQuery]);

  const allCount = counts ? counts.draft + counts.scheduled + counts.published + counts.archived : undefined;
  return (
    <form role="search" className="grid gap-3 sm:grid-cols-[1fr_14rem]" onSubmit={(e) => e.preventDefault()}>
      <div>
        <label htmlFor="post-search" className="text-sm font-semibold text-fg">
          Search posts
        </label>
        <input
          id="post-search"
          type="search"
          value={search}
          onChange={(e) => setSearch(e.target.value)}
          placeholder="Title, excerpt or category"
          className={controlClass}
        />
      </div>
      <div>
        <label htmlFor="post-status" className="text-sm font-semibold text-fg">
          Status
        </label>
        <select id="post-status" value={status ?? ''} onChange={(e) => setStatus(e.target.value)} className={controlClass}>
          <option value="">All statuses{allCount !== undefined ? ` (${allCount})` : ''}</option>
          {POST_STATUSES.map((s) => (
            <option key={s} value={s}>
              {statusLabel(s)}
              {counts ? ` (${counts[s]})` : ''}
            </option>
          ))}
        </select>
      </div>
    </form>
  );
}
