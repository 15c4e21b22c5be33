import { useMutation, useQueryClient } from '@tanstack/react-query';
import { webhookEndpointWithSecretSchema, type WebhookEndpointWithSecret } from '@site/contracts/webhooks-out';
import { adminRequest } from '../../../lib/admin-request';
import { endpointChanged } from './update-webhook';

/** PATCH /api/admin/webhooks/:id with regenerateSecret: the old secret stops working; the new one is shown once. */
export function regenerateWebhookSecret(id: string): Promise<WebhookEndpointWithSecret> {
  return adminRequest(`/api/admin/webhooks/${encodeURIComponent(id)}`, webhookEndpointWithSecretSchema, { method: 'PATCH', json: { regenerateSecret: true } });
}

export function useRegenerateWebhookSecretMutation() {
  const client = useQueryClient();
  return useMutation({ mutationFn: regenerateWebhookSecret, onSuccess: ({ secret: _secret, ...endpoint }) => endpointChanged(client, endpoint) });
}
