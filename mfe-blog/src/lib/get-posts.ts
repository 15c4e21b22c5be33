import { requestJson } from '@site/ui';
import { postListSchema, type PostList } from '@site/contracts/posts';

/** GET /api/posts: every published post, newest first (the pages filter on the client). */
export function getPosts(signal?: AbortSignal): Promise<PostList> {
  return requestJson('/api/posts', postListSchema, { signal });
}
