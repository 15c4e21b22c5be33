import { useMutation, useQueryClient } from '@tanstack/react-query';
import { webhookDeliverySchema, type WebhookDelivery } from '@site/contracts/webhooks-out';
import { adminRequest } from '../../../lib/admin-request';
import { webhookKeys } from '../lib/webhook-keys';

/** POST /api/admin/webhooks/:id/test: sends a `webhook.test` event now and answers how it went. */
export function sendTestWebhook(id: string): Promise<WebhookDelivery> {
  return adminRequest(`/api/admin/webhooks/${encodeURIComponent(id)}/test`, webhookDeliverySchema, { method: 'POST' });
}

/** Sends a test event; the endpoint's delivery log is asked again, so it shows the delivery. */
export function useSendTestWebhookMutation() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: sendTestWebhook,
    onSuccess: (_delivery, id) => void client.invalidateQueries({ queryKey: webhookKeys.deliveries(id) }),
  });
}
