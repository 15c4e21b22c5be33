import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { postRevisionListSchema, type PostRevisionList } from '@site/contracts/admin';
import { adminRequest } from '../../../lib/admin-request';
import { postKeys } from '../lib/post-queries';

/** GET /api/admin/posts/:id/revisions: one page of the post's history, newest first. */
export function listPostRevisions(postId: string, query: { page: number; limit: number }, signal?: AbortSignal): Promise<PostRevisionList> {
  const params = new URLSearchParams({ page: String(query.page), limit: String(query.limit) });
  return adminRequest(`/api/admin/posts/${encodeURIComponent(postId)}/revisions?${params.toString()}`, postRevisionListSchema, { signal });
}

/** One page of the history; the page shown stays while the next loads. */
export function usePostRevisionsQuery(postId: string, page: number, limit: number) {
  return useQuery({
    queryKey: postKeys.revisionPage(postId, page),
    queryFn: ({ signal }) => listPostRevisions(postId, { page, limit }, signal),
    placeholderData: keepPreviousData,
  });
}
