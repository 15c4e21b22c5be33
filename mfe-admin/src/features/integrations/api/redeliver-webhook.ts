import { useMutation, useQueryClient } from '@tanstack/react-query';
import { webhookDeliverySchema, type WebhookDelivery } from '@site/contracts/webhooks-out';
import { adminRequest } from '../../../lib/admin-request';
import { webhookKeys } from '../lib/webhook-keys';

/** POST /api/admin/webhooks/:id/deliveries/:deliveryId/redeliver: the same event (same id) sent again now. */
export function redeliverWebhook(id: string, deliveryId: string): Promise<WebhookDelivery> {
  return adminRequest(
    `/api/admin/webhooks/${encodeURIComponent(id)}/deliveries/${encodeURIComponent(deliveryId)}/redeliver`,
    webhookDeliverySchema,
    { method: 'POST' },
  );
}

/** Sends a delivery again; the log is asked again, so it shows the redelivery. */
export function useRedeliverWebhookMutation() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ endpointId, deliveryId }: { endpointId: string; deliveryId: string }) => redeliverWebhook(endpointId, deliveryId),
    onSuccess: (_delivery, { endpointId }) => void client.invalidateQueries({ queryKey: webhookKeys.deliveries(endpointId) }),
  });
}
