import { requestJson } from '@site/ui';
import type { PostList } from '@site/contracts/posts';

const loadPostListSchema = () => import('@site/contracts/posts').then((m) => m.postListSchema);

/** What the reader filters the list by: search text and a category slug ('' for none). */
export type PostFilter = { q: string; category: string };

/**
 * GET /api/posts: one page of published posts matching `filter`, newest first; `cursor` is the previous
 * page's `nextCursor`. The server searches, filters and counts (`total`).
 */
export function getPosts(filter: PostFilter, cursor: string | null, signal?: AbortSignal): Promise<PostList> {
  const query = new URLSearchParams();
  if (filter.q.trim()) query.set('q', filter.q.trim());
  if (filter.category) query.set('category', filter.category);
  if (cursor) query.set('cursor', cursor);
  const search = query.toString();
  // The contract (and zod) loads with the first request, not with the page: the first page comes with the HTML.
  return requestJson(`/api/posts${search ? `?${search}` : ''}`, loadPostListSchema, { signal });
}
