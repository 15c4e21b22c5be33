import { z } from 'zod';
import { adminRequest } from '../../../lib/admin-request';

/** DELETE /api/admin/webhooks/:id: the endpoint and its delivery log. */
export async function deleteWebhook(id: string): Promise<void> {
  await adminRequest(`/api/admin/webhooks/${encodeURIComponent(id)}`, z.unknown(), { method: 'DELETE' });
}
