import { useQuery } from '@tanstack/react-query';
import { webhookDeliveryListSchema, type WebhookDeliveryList } from '@site/contracts/webhooks-out';
import { adminRequest } from '../../../lib/admin-request';
import { webhookKeys } from '../lib/webhook-keys';

/** GET /api/admin/webhooks/:id/deliveries: the endpoint's latest deliveries, newest first. */
export function listWebhookDeliveries(id: string, signal?: AbortSignal): Promise<WebhookDeliveryList> {
  return adminRequest(`/api/admin/webhooks/${encodeURIComponent(id)}/deliveries?limit=25`, webhookDeliveryListSchema, { signal });
}

export function useWebhookDeliveriesQuery(endpointId: string) {
  return useQuery({ queryKey: webhookKeys.deliveries(endpointId), queryFn: ({ signal }) => listWebhookDeliveries(endpointId, signal) });
}
