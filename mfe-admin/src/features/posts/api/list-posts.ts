import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { adminPostListSchema, type AdminPostList, type AdminPostListQueryInput } from '@site/contracts/admin';
import { adminRequest } from '../../../lib/admin-request';
import { postKeys } from '../lib/post-queries';

/** GET /api/admin/posts: every status (or one), searched by title, excerpt and category. */
export function listPosts(query: AdminPostListQueryInput, signal?: AbortSignal): Promise<AdminPostList> {
  const params = new URLSearchParams();
  if (query.q) params.set('q', query.q);
  if (query.status) params.set('status', query.status);
  if (query.cursor) params.set('cursor', query.cursor);
  if (query.limit) params.set('limit', String(query.limit));
  const qs = params.toString();
  return adminRequest(`/api/admin/posts${qs ? `?${qs}` : ''}`, adminPostListSchema, { signal });
}

/** One page of the list; while another filter or page loads, the last one stays on screen. */
export function usePostsQuery(query: AdminPostListQueryInput) {
  return useQuery({ queryKey: postKeys.list(query), queryFn: ({ signal }) => listPosts(query, signal), placeholderData: keepPreviousData });
}
