import { z } from 'zod';
import { adminRequest } from '../../../lib/admin-request';

/** DELETE /api/admin/media/:id: refused (409) while a post uses the image. */
export async function deleteMedia(id: string): Promise<void> {
  await adminRequest(`/api/admin/media/${encodeURIComponent(id)}`, z.unknown(), { method: 'DELETE' });
}
