import { useMutation, useQueryClient } from '@tanstack/react-query';
import { mediaItemSchema, type MediaItem, type MediaList } from '@site/contracts/media';
import { adminRequest } from '../../../lib/admin-request';
import { mediaKey } from './list-media';

/** PATCH /api/admin/media/:id { alt }. */
export function updateMediaAlt(id: string, alt: string): Promise<MediaItem> {
  return adminRequest(`/api/admin/media/${encodeURIComponent(id)}`, mediaItemSchema, { method: 'PATCH', json: { alt } });
}

/** Saves an image's alt text; the library shows the answer. */
export function useUpdateMediaAltMutation() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, alt }: { id: string; alt: string }) => updateMediaAlt(id, alt),
    onSuccess: (updated) => client.setQueryData<MediaList>(mediaKey, (d) => (d ? { media: d.media.map((m) => (m.id === updated.id ? updated : m)) } : d)),
  });
}
