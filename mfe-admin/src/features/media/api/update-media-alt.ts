import { mediaItemSchema, type MediaItem } from '@site/contracts/media';
import { adminRequest } from '../../../lib/admin-request';

/** PATCH /api/admin/media/:id { alt }. */
export function updateMediaAlt(id: string, alt: string): Promise<MediaItem> {
  return adminRequest(`/api/admin/media/${encodeURIComponent(id)}`, mediaItemSchema, { method: 'PATCH', json: { alt } });
}
