import type { AdminPostCreate } from '@site/contracts/admin';
import { postSchema, type Post } from '@site/contracts/posts';
import { adminRequest } from '../../../lib/admin-request';

/** POST /api/admin/posts: stored as a draft; 400 'Validation failed: …' with the messages in details. */
export function createPost(body: AdminPostCreate): Promise<Post> {
  return adminRequest('/api/admin/posts', postSchema, { method: 'POST', json: body });
}
