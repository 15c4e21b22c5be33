import { useQuery } from '@tanstack/react-query';
import { deletedPostListSchema, type DeletedPost } from '@site/contracts/admin';
import { adminRequest } from '../../../lib/admin-request';
import { postKeys } from '../lib/post-queries';

/** GET /api/admin/posts/deleted: posts deleted in the last 30 days, most recent first. */
export async function listDeletedPosts(signal?: AbortSignal): Promise<DeletedPost[]> {
  const { posts } = await adminRequest('/api/admin/posts/deleted', deletedPostListSchema, { signal });
  return posts;
}

export function useDeletedPostsQuery() {
  return useQuery({ queryKey: postKeys.deleted(), queryFn: ({ signal }) => listDeletedPosts(signal) });
}
