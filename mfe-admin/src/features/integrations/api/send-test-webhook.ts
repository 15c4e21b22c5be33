import { webhookDeliverySchema, type WebhookDelivery } from '@site/contracts/webhooks-out';
import { adminRequest } from '../../../lib/admin-request';

/** POST /api/admin/webhooks/:id/test: sends a `webhook.test` event now and answers how it went. */
export function sendTestWebhook(id: string): Promise<WebhookDelivery> {
  return adminRequest(`/api/admin/webhooks/${encodeURIComponent(id)}/test`, webhookDeliverySchema, { method: 'POST' });
}
