import { requestJson } from '@site/ui';
import type { Post } from '@site/contracts/posts';

/** The contract (and zod) loads with a request, not with the page: a post opened from its URL comes with the HTML. */
const loadPostSchema = () => import('@site/contracts/posts').then((m) => m.postSchema);

/** GET /api/posts/:slug: one published post (404 'Post not found' otherwise). */
export function getPost(slug: string, signal?: AbortSignal): Promise<Post> {
  return requestJson(`/api/posts/${encodeURIComponent(slug)}`, loadPostSchema, { signal });
}
