import { useMutation, useQueryClient } from '@tanstack/react-query';
import { postSchema, type Post } from '@site/contracts/posts';
import { adminRequest } from '../../../lib/admin-request';
import { postChanged } from '../lib/post-queries';

/**
 * POST /api/admin/posts/:id/publish: drafts and scheduled posts ('Publish now'); sets published, updatedAt and
 * publishedAt if missing.
 */
export function publishPost(id: string): Promise<Post> {
  return adminRequest(`/api/admin/posts/${encodeURIComponent(id)}/publish`, postSchema, { method: 'POST' });
}

export function usePublishPostMutation() {
  const client = useQueryClient();
  return useMutation({ mutationFn: publishPost, onSuccess: (published) => postChanged(client, published) });
}
