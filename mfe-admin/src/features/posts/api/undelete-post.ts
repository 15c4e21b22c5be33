import { useMutation, useQueryClient } from '@tanstack/react-query';
import { postSchema, type Post } from '@site/contracts/posts';
import { adminRequest } from '../../../lib/admin-request';
import { postChanged, postKeys } from '../lib/post-queries';

/** POST /api/admin/posts/:id/undelete: a post deleted in the last 30 days comes back as a draft (201). */
export function undeletePost(id: string): Promise<Post> {
  return adminRequest(`/api/admin/posts/${encodeURIComponent(id)}/undelete`, postSchema, { method: 'POST' });
}

/** Brings a post back: it leaves 'Recently deleted' and is in the lists again. */
export function useUndeletePostMutation() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: undeletePost,
    onSuccess: (post) => {
      postChanged(client, post);
      void client.invalidateQueries({ queryKey: postKeys.deleted() });
    },
  });
}
