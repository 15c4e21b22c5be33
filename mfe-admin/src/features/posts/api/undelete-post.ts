import { postSchema, type Post } from '@site/contracts/posts';
import { adminRequest } from '../../../lib/admin-request';

/** POST /api/admin/posts/:id/undelete: a post deleted in the last 30 days comes back as a draft (201). */
export function undeletePost(id: string): Promise<Post> {
  return adminRequest(`/api/admin/posts/${encodeURIComponent(id)}/undelete`, postSchema, { method: 'POST' });
}
