import { postRevisionListSchema, type PostRevisionList } from '@site/contracts/admin';
import { adminRequest } from '../../../lib/admin-request';

/** GET /api/admin/posts/:id/revisions: one page of the post's history, newest first. */
export function listPostRevisions(postId: string, query: { page: number; limit: number }, signal?: AbortSignal): Promise<PostRevisionList> {
  const params = new URLSearchParams({ page: String(query.page), limit: String(query.limit) });
  return adminRequest(`/api/admin/posts/${encodeURIComponent(postId)}/revisions?${params.toString()}`, postRevisionListSchema, { signal });
}
