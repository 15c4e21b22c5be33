import { webhookEndpointWithSecretSchema, type WebhookEndpointWithSecret } from '@site/contracts/webhooks-out';
import { adminRequest } from '../../../lib/admin-request';

/** PATCH /api/admin/webhooks/:id with regenerateSecret: the old secret stops working; the new one is shown once. */
export function regenerateWebhookSecret(id: string): Promise<WebhookEndpointWithSecret> {
  return adminRequest(`/api/admin/webhooks/${encodeURIComponent(id)}`, webhookEndpointWithSecretSchema, { method: 'PATCH', json: { regenerateSecret: true } });
}
