import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { AdminPostUpdate } from '@site/contracts/admin';
import { postSchema, type Post } from '@site/contracts/posts';
import { adminRequest } from '../../../lib/admin-request';
import { postChanged } from '../lib/post-queries';

/** PUT /api/admin/posts/:id with the updatedAt the form loaded: 409 when the post changed meanwhile. */
export function updatePost(id: string, body: AdminPostUpdate): Promise<Post> {
  return adminRequest(`/api/admin/posts/${encodeURIComponent(id)}`, postSchema, { method: 'PUT', json: body });
}

export function useUpdatePostMutation() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id: string; body: AdminPostUpdate }) => updatePost(id, body),
    onSuccess: (updated) => postChanged(client, updated),
  });
}
