import { useMutation, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { adminRequest } from '../../../lib/admin-request';
import { removeFromLibrary } from '../lib/library-cache';

/** DELETE /api/admin/media/:id: refused (409) while a post uses the image. */
export async function deleteMedia(id: string): Promise<void> {
  await adminRequest(`/api/admin/media/${encodeURIComponent(id)}`, z.unknown(), { method: 'DELETE' });
}

export function useDeleteMediaMutation() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: deleteMedia,
    onSuccess: (_none, id) => removeFromLibrary(client, id),
  });
}
