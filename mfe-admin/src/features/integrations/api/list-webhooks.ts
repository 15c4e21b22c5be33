import { useQuery } from '@tanstack/react-query';
import { webhookEndpointListSchema, type WebhookEndpointList } from '@site/contracts/webhooks-out';
import { adminRequest } from '../../../lib/admin-request';
import { webhookKeys } from '../lib/webhook-keys';

/** GET /api/admin/webhooks: the endpoints (URLs, never secrets). */
export function listWebhooks(signal?: AbortSignal): Promise<WebhookEndpointList> {
  return adminRequest('/api/admin/webhooks', webhookEndpointListSchema, { signal });
}

export function useWebhooksQuery() {
  return useQuery({ queryKey: webhookKeys.list(), queryFn: ({ signal }) => listWebhooks(signal) });
}
