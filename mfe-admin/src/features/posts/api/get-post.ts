import { useQuery } from '@tanstack/react-query';
import { postSchema, type Post } from '@site/contracts/posts';
import { adminRequest } from '../../../lib/admin-request';
import { postKeys } from '../lib/post-queries';

/** GET /api/admin/posts/:id (any status); 404 'Post not found'. */
export function getPost(id: string, signal?: AbortSignal): Promise<Post> {
  return adminRequest(`/api/admin/posts/${encodeURIComponent(id)}`, postSchema, { signal });
}

/** One post for its edit screen, asked again on every visit (the form must start from the stored version). */
export function usePostQuery(id: string) {
  return useQuery({ queryKey: postKeys.detail(id), queryFn: ({ signal }) => getPost(id, signal), refetchOnMount: 'always' });
}
