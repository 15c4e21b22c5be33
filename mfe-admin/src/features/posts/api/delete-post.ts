import { useMutation, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { adminRequest } from '../../../lib/admin-request';
import { postKeys } from '../lib/post-queries';

/** DELETE /api/admin/posts/:id (204). */
export async function deletePost(id: string): Promise<void> {
  await adminRequest(`/api/admin/posts/${encodeURIComponent(id)}`, z.unknown(), { method: 'DELETE' });
}

/** Deletes a post: it leaves the lists and joins 'Recently deleted'; its cached copy is dropped (it has no edit page now). */
export function useDeletePostMutation() {
  const client = useQueryClient();
  return useMutation({
    mutationKey: postKeys.deleting(),
    mutationFn: deletePost,
    onSuccess: (_none, id) => {
      client.removeQueries({ queryKey: postKeys.detail(id) });
      void client.invalidateQueries({ queryKey: postKeys.lists() });
      void client.invalidateQueries({ queryKey: postKeys.deleted() });
    },
  });
}
