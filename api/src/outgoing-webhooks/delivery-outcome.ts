// What an attempt's answer makes of a delivery and of its endpoint: its next try, or the endpoint turned off after a
// whole retry window of failures.
import { WEBHOOK_RETRY_WINDOW_MS } from '@site/contracts/webhooks-out';
import type { AlertService } from '../admin/alert-service';
import type { Logger } from '../lib/logger';
import type { WebhooksOutRepository } from './outgoing-webhooks-repository';
import type { SendResult } from './webhook-sender';

/** A Retry-After is honoured up to this (a receiver cannot park a delivery past the retry window). */
const MAX_RETRY_AFTER_MS = 6 * 3600_000;
const isRetryable = (status: number) => status >= 500 || status === 429;

/**
 * When the next attempt may be: the schedule's delay, or the receiver's Retry-After when that is longer (up to
 * MAX_RETRY_AFTER_MS). A `Retry-After: 0` (or any shorter one) never brings a retry before the schedule: it made a
 * retry at every outbox poll, thousands a day per delivery, each stored.
 */
export function nextRetryDelayMs(scheduleMs: number, retryAfterMs: number | undefined): number {
  return Math.max(scheduleMs, Math.min(retryAfterMs ?? 0, MAX_RETRY_AFTER_MS));
}

/** Called after a failed attempt: an endpoint failing for the whole retry window is turned off, with one alert. */
export async function endpointFailed(
  deps: { repository: Pick<WebhooksOutRepository, 'markEndpointFailing' | 'disableEndpoint'>; logger: Logger; alerts?: Pick<AlertService, 'notify'> },
  endpointId: string,
  now: Date,
) {
  const { repository, logger } = deps;
  const endpoint = await repository.markEndpointFailing(endpointId, now.toISOString());
  if (!endpoint?.failingSince || !endpoint.enabled) return;
  if (now.getTime() - Date.parse(endpoint.failingSince) < WEBHOOK_RETRY_WINDOW_MS) return;
  const reason = `Every delivery failed since ${endpoint.failingSince}; turned off after 24 hours.`;
  if (!(await repository.disableEndpoint(endpointId, reason, now.toISOString()))) return;
  logger.warn({ webhookEndpointId: endpointId, url: endpoint.url }, 'outgoing webhook endpoint disabled after 24 h of failures');
  deps.alerts?.notify({
    type: 'webhookDelivery',
    severity: 'high',
    title: 'Webhook endpoint disabled',
    message: `${endpoint.url} failed every delivery for 24 hours and was turned off. Fix it, then enable it again under Integrations.`,
    detail: reason,
    key: `webhook:${endpointId}`,
    cooldownMs: 60 * 60_000,
  });
}

/** What an attempt's answer makes of its delivery: delivered, failed (given up), or pending until its next try. */
export function afterAttempt(
  result: SendResult,
  createdAt: string,
  at: Date,
  attempts: number,
  limits: { maxAttempts: number; retryDelay: (attempt: number) => number },
): { delivered: boolean; status: 'pending' | 'delivered' | 'failed'; nextAttemptAt: string | null } {
  const { maxAttempts, retryDelay } = limits;
  const delivered = result.kind === 'answered' && result.status >= 200 && result.status < 300;
  // A refused target (metadata, or private while that is off) fails at once: it would be refused on every retry.
  const retryable = result.kind === 'network' || (result.kind === 'answered' && isRetryable(result.status));
  const deadline = Date.parse(createdAt) + WEBHOOK_RETRY_WINDOW_MS;
  let status: 'pending' | 'delivered' | 'failed' = delivered ? 'delivered' : 'failed';
  let nextAttemptAt: string | null = null;
  // Past the window or the cap on attempts the delivery is failed (given up), as a 4xx answer fails it at once.
  if (!delivered && retryable && at.getTime() < deadline && attempts < maxAttempts) {
    const wanted = nextRetryDelayMs(retryDelay(attempts), result.kind === 'answered' ? result.retryAfterMs : undefined);
    status = 'pending';
    // The last try lands on the end of the window, so a receiver back within 24 h still gets the event.
    nextAttemptAt = new Date(Math.min(at.getTime() + Math.max(wanted, 1000), deadline)).toISOString();
  }
  return { delivered, status, nextAttemptAt };
}
