import { webhookAttemptListSchema, type WebhookAttemptList } from '@site/contracts/webhooks-out';
import { adminRequest } from '../../../lib/admin-request';

/** GET /api/admin/webhooks/:id/deliveries/:deliveryId/attempts: every attempt of one delivery, oldest first. */
export function listWebhookAttempts(id: string, deliveryId: string, signal?: AbortSignal): Promise<WebhookAttemptList> {
  return adminRequest(`/api/admin/webhooks/${encodeURIComponent(id)}/deliveries/${encodeURIComponent(deliveryId)}/attempts`, webhookAttemptListSchema, { signal });
}
