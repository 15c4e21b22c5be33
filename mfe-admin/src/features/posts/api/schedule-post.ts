import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { AdminPostSchedule } from '@site/contracts/admin';
import { postSchema, type Post } from '@site/contracts/posts';
import { adminRequest } from '../../../lib/admin-request';
import { postChanged } from '../lib/post-queries';

/**
 * POST /api/admin/posts/:id/schedule: a draft (or a scheduled post, to move its time) is published at `publishAt`.
 * 400 'Validation failed: publishAt …' for a time in the past or over a year ahead; 409 when the post changed since
 * `expectedUpdatedAt` (details.current) or is published or archived.
 */
export function schedulePost(id: string, body: AdminPostSchedule): Promise<Post> {
  return adminRequest(`/api/admin/posts/${encodeURIComponent(id)}/schedule`, postSchema, { method: 'POST', json: body });
}

export function useSchedulePostMutation() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id: string; body: AdminPostSchedule }) => schedulePost(id, body),
    onSuccess: (scheduled) => postChanged(client, scheduled),
  });
}
