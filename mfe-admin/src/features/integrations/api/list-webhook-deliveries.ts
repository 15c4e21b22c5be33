import { webhookDeliveryListSchema, type WebhookDeliveryList } from '@site/contracts/webhooks-out';
import { adminRequest } from '../../../lib/admin-request';

/** GET /api/admin/webhooks/:id/deliveries: the endpoint's latest deliveries, newest first. */
export function listWebhookDeliveries(id: string, signal?: AbortSignal): Promise<WebhookDeliveryList> {
  return adminRequest(`/api/admin/webhooks/${encodeURIComponent(id)}/deliveries?limit=25`, webhookDeliveryListSchema, { signal });
}
