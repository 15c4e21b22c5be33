import { useMutation, useQueryClient } from '@tanstack/react-query';
import { postSchema, type Post } from '@site/contracts/posts';
import { adminRequest } from '../../../lib/admin-request';
import { postChanged } from '../lib/post-queries';

/**
 * POST /api/admin/posts/:id/revisions/:revisionId/restore with the updatedAt the form loaded: the post's fields
 * become the revision's (status and slug stay); 409 with details.current when the post changed meanwhile.
 */
export function restorePostRevision(postId: string, revisionId: string, expectedUpdatedAt: string): Promise<Post> {
  return adminRequest(`/api/admin/posts/${encodeURIComponent(postId)}/revisions/${encodeURIComponent(revisionId)}/restore`, postSchema, {
    method: 'POST',
    json: { expectedUpdatedAt },
  });
}

export function useRestorePostRevisionMutation() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ postId, revisionId, expectedUpdatedAt }: { postId: string; revisionId: string; expectedUpdatedAt: string }) =>
      restorePostRevision(postId, revisionId, expectedUpdatedAt),
    onSuccess: (restored) => postChanged(client, restored),
  });
}
