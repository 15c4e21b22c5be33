import { postSchema, type Post } from '@site/contracts/posts';
import { adminRequest } from '../../../lib/admin-request';

/**
 * POST /api/admin/posts/:id/publish: drafts and scheduled posts ('Publish now'); sets published, updatedAt and
 * publishedAt if missing.
 */
export function publishPost(id: string): Promise<Post> {
  return adminRequest(`/api/admin/posts/${encodeURIComponent(id)}/publish`, postSchema, { method: 'POST' });
}
