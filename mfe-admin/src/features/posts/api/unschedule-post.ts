import { useMutation, useQueryClient } from '@tanstack/react-query';
import { postSchema, type Post } from '@site/contracts/posts';
import { adminRequest } from '../../../lib/admin-request';
import { postChanged } from '../lib/post-queries';

/** POST /api/admin/posts/:id/unschedule: a scheduled post becomes a draft again; 409 when it is not scheduled. */
export function unschedulePost(id: string): Promise<Post> {
  return adminRequest(`/api/admin/posts/${encodeURIComponent(id)}/unschedule`, postSchema, { method: 'POST' });
}

export function useUnschedulePostMutation() {
  const client = useQueryClient();
  return useMutation({ mutationFn: unschedulePost, onSuccess: (draft) => postChanged(client, draft) });
}
