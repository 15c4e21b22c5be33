import { useMutation, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import type { MediaList } from '@site/contracts/media';
import { adminRequest } from '../../../lib/admin-request';
import { mediaKey } from './list-media';

/** DELETE /api/admin/media/:id: refused (409) while a post uses the image. */
export async function deleteMedia(id: string): Promise<void> {
  await adminRequest(`/api/admin/media/${encodeURIComponent(id)}`, z.unknown(), { method: 'DELETE' });
}

export function useDeleteMediaMutation() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: deleteMedia,
    onSuccess: (_none, id) => client.setQueryData<MediaList>(mediaKey, (d) => (d ? { media: d.media.filter((m) => m.id !== id) } : d)),
  });
}
