import { requestJson } from '@site/ui';
import { postSchema, type Post } from '@site/contracts/posts';

/** GET /api/posts/:slug: one published post (404 'Post not found' otherwise). */
export function getPost(slug: string, signal?: AbortSignal): Promise<Post> {
  return requestJson(`/api/posts/${encodeURIComponent(slug)}`, postSchema, { signal });
}
