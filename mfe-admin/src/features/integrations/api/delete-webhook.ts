import { useMutation, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import type { WebhookEndpointList } from '@site/contracts/webhooks-out';
import { adminRequest } from '../../../lib/admin-request';
import { webhookKeys } from '../lib/webhook-keys';

/** DELETE /api/admin/webhooks/:id: the endpoint and its delivery log. */
export async function deleteWebhook(id: string): Promise<void> {
  await adminRequest(`/api/admin/webhooks/${encodeURIComponent(id)}`, z.unknown(), { method: 'DELETE' });
}

export function useDeleteWebhookMutation() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: deleteWebhook,
    onSuccess: (_none, id) => client.setQueryData<WebhookEndpointList>(webhookKeys.list(), (d) => ({ endpoints: (d?.endpoints ?? []).filter((e) => e.id !== id) })),
  });
}
