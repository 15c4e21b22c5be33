import { useMutation, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { webhookEndpointSchema, type WebhookEndpoint, type WebhookEndpointList, type WebhookEndpointUpdate } from '@site/contracts/webhooks-out';
import { adminRequest } from '../../../lib/admin-request';
import { webhookKeys } from '../lib/webhook-keys';

/** PATCH /api/admin/webhooks/:id: URL, description, events or enabled. */
export function updateWebhook(id: string, body: Omit<WebhookEndpointUpdate, 'regenerateSecret'>): Promise<WebhookEndpoint> {
  return adminRequest(`/api/admin/webhooks/${encodeURIComponent(id)}`, webhookEndpointSchema, { method: 'PATCH', json: body });
}

/** The list shows an endpoint as the server answered it. */
export function endpointChanged(client: QueryClient, updated: WebhookEndpoint): void {
  client.setQueryData<WebhookEndpointList>(webhookKeys.list(), (d) => ({ endpoints: (d?.endpoints ?? []).map((e) => (e.id === updated.id ? updated : e)) }));
}

export function useUpdateWebhookMutation() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id: string; body: Omit<WebhookEndpointUpdate, 'regenerateSecret'> }) => updateWebhook(id, body),
    onSuccess: (updated) => endpointChanged(client, updated),
  });
}
