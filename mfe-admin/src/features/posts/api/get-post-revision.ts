import { useQuery } from '@tanstack/react-query';
import { postRevisionSchema, type PostRevision } from '@site/contracts/admin';
import { adminRequest } from '../../../lib/admin-request';
import { postKeys } from '../lib/post-queries';

/** GET /api/admin/posts/:id/revisions/:revisionId: one revision with the post's fields as they were then. */
export function getPostRevision(postId: string, revisionId: string, signal?: AbortSignal): Promise<PostRevision> {
  return adminRequest(`/api/admin/posts/${encodeURIComponent(postId)}/revisions/${encodeURIComponent(revisionId)}`, postRevisionSchema, { signal });
}

/** A revision is written once and never changes: loaded once per visit. */
export function usePostRevisionQuery(postId: string, revisionId: string) {
  return useQuery({ queryKey: postKeys.revision(postId, revisionId), queryFn: ({ signal }) => getPostRevision(postId, revisionId, signal), staleTime: Infinity });
}
