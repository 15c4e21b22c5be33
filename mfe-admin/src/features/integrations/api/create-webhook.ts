import { useMutation, useQueryClient } from '@tanstack/react-query';
import { webhookEndpointWithSecretSchema, type WebhookEndpointCreateInput, type WebhookEndpointList, type WebhookEndpointWithSecret } from '@site/contracts/webhooks-out';
import { adminRequest } from '../../../lib/admin-request';
import { webhookKeys } from '../lib/webhook-keys';

/** POST /api/admin/webhooks: answers the endpoint with its signing secret (shown this once). */
export function createWebhook(body: WebhookEndpointCreateInput): Promise<WebhookEndpointWithSecret> {
  return adminRequest('/api/admin/webhooks', webhookEndpointWithSecretSchema, { method: 'POST', json: body });
}

/** Adds an endpoint; the list shows it (without its secret, which only the caller gets, to show once). */
export function useCreateWebhookMutation() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: createWebhook,
    onSuccess: ({ secret: _secret, ...created }) =>
      client.setQueryData<WebhookEndpointList>(webhookKeys.list(), (d) => ({ endpoints: [...(d?.endpoints ?? []), created] })),
  });
}
