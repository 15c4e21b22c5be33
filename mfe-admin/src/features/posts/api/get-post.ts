import { postSchema, type Post } from '@site/contracts/posts';
import { adminRequest } from '../../../lib/admin-request';

/** GET /api/admin/posts/:id (any status); 404 'Post not found'. */
export function getPost(id: string, signal?: AbortSignal): Promise<Post> {
  return adminRequest(`/api/admin/posts/${encodeURIComponent(id)}`, postSchema, { signal });
}
