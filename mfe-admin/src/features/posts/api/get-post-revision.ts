import { postRevisionSchema, type PostRevision } from '@site/contracts/admin';
import { adminRequest } from '../../../lib/admin-request';

/** GET /api/admin/posts/:id/revisions/:revisionId: one revision with the post's fields as they were then. */
export function getPostRevision(postId: string, revisionId: string, signal?: AbortSignal): Promise<PostRevision> {
  return adminRequest(`/api/admin/posts/${encodeURIComponent(postId)}/revisions/${encodeURIComponent(revisionId)}`, postRevisionSchema, { signal });
}
