import { useQuery } from '@tanstack/react-query';
import { webhookAttemptListSchema, type WebhookAttemptList } from '@site/contracts/webhooks-out';
import { adminRequest } from '../../../lib/admin-request';
import { webhookKeys } from '../lib/webhook-keys';

/** GET /api/admin/webhooks/:id/deliveries/:deliveryId/attempts: every attempt of one delivery, oldest first. */
export function listWebhookAttempts(id: string, deliveryId: string, signal?: AbortSignal): Promise<WebhookAttemptList> {
  return adminRequest(`/api/admin/webhooks/${encodeURIComponent(id)}/deliveries/${encodeURIComponent(deliveryId)}/attempts`, webhookAttemptListSchema, { signal });
}

export function useWebhookAttemptsQuery(endpointId: string, deliveryId: string, count: number) {
  return useQuery({ queryKey: webhookKeys.attempts(endpointId, deliveryId, count), queryFn: ({ signal }) => listWebhookAttempts(endpointId, deliveryId, signal) });
}
