import { webhookEndpointWithSecretSchema, type WebhookEndpointCreateInput, type WebhookEndpointWithSecret } from '@site/contracts/webhooks-out';
import { adminRequest } from '../../../lib/admin-request';

/** POST /api/admin/webhooks: answers the endpoint with its signing secret (shown this once). */
export function createWebhook(body: WebhookEndpointCreateInput): Promise<WebhookEndpointWithSecret> {
  return adminRequest('/api/admin/webhooks', webhookEndpointWithSecretSchema, { method: 'POST', json: body });
}
