import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { AdminPostCreate } from '@site/contracts/admin';
import { postSchema, type Post } from '@site/contracts/posts';
import { adminRequest } from '../../../lib/admin-request';
import { postKeys } from '../lib/post-queries';

/** POST /api/admin/posts: stored as a draft; 400 'Validation failed: …' with the messages in details. */
export function createPost(body: AdminPostCreate): Promise<Post> {
  return adminRequest('/api/admin/posts', postSchema, { method: 'POST', json: body });
}

/** Creates a draft; the lists are asked again, so the new post is in them. */
export function useCreatePostMutation() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: createPost,
    onSuccess: (created) => {
      client.setQueryData(postKeys.detail(created.id), created);
      void client.invalidateQueries({ queryKey: postKeys.lists() });
    },
  });
}
