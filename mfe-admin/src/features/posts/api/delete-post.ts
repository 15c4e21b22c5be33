import { z } from 'zod';
import { adminRequest } from '../../../lib/admin-request';

/** DELETE /api/admin/posts/:id (204). */
export async function deletePost(id: string): Promise<void> {
  await adminRequest(`/api/admin/posts/${encodeURIComponent(id)}`, z.unknown(), { method: 'DELETE' });
}
