import { deletedPostListSchema, type DeletedPost } from '@site/contracts/admin';
import { adminRequest } from '../../../lib/admin-request';

/** GET /api/admin/posts/deleted: posts deleted in the last 30 days, most recent first. */
export async function listDeletedPosts(signal?: AbortSignal): Promise<DeletedPost[]> {
  const { posts } = await adminRequest('/api/admin/posts/deleted', deletedPostListSchema, { signal });
  return posts;
}
