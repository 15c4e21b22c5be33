import { useMutation, useQueryClient } from '@tanstack/react-query';
import { mediaItemSchema, type MediaItem } from '@site/contracts/media';
import { adminRequest } from '../../../lib/admin-request';
import { replaceInLibrary } from '../lib/library-cache';

/** PATCH /api/admin/media/:id { alt }. */
export function updateMediaAlt(id: string, alt: string): Promise<MediaItem> {
  return adminRequest(`/api/admin/media/${encodeURIComponent(id)}`, mediaItemSchema, { method: 'PATCH', json: { alt } });
}

/** Saves an image's alt text; the loaded pages of the library show the answer. */
export function useUpdateMediaAltMutation() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, alt }: { id: string; alt: string }) => updateMediaAlt(id, alt),
    onSuccess: (updated) => replaceInLibrary(client, updated),
  });
}
