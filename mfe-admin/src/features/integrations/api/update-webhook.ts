import { webhookEndpointSchema, type WebhookEndpoint, type WebhookEndpointUpdate } from '@site/contracts/webhooks-out';
import { adminRequest } from '../../../lib/admin-request';

/** PATCH /api/admin/webhooks/:id: URL, description, events or enabled. */
export function updateWebhook(id: string, body: Omit<WebhookEndpointUpdate, 'regenerateSecret'>): Promise<WebhookEndpoint> {
  return adminRequest(`/api/admin/webhooks/${encodeURIComponent(id)}`, webhookEndpointSchema, { method: 'PATCH', json: body });
}
