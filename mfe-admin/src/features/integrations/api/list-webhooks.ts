import { webhookEndpointListSchema, type WebhookEndpointList } from '@site/contracts/webhooks-out';
import { adminRequest } from '../../../lib/admin-request';

/** GET /api/admin/webhooks: the endpoints (URLs, never secrets). */
export function listWebhooks(signal?: AbortSignal): Promise<WebhookEndpointList> {
  return adminRequest('/api/admin/webhooks', webhookEndpointListSchema, { signal });
}
