import { webhookDeliverySchema, type WebhookDelivery } from '@site/contracts/webhooks-out';
import { adminRequest } from '../../../lib/admin-request';

/** POST /api/admin/webhooks/:id/deliveries/:deliveryId/redeliver: the same event (same id) sent again now. */
export function redeliverWebhook(id: string, deliveryId: string): Promise<WebhookDelivery> {
  return adminRequest(
    `/api/admin/webhooks/${encodeURIComponent(id)}/deliveries/${encodeURIComponent(deliveryId)}/redeliver`,
    webhookDeliverySchema,
    { method: 'POST' },
  );
}
