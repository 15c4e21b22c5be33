/**
 * What the services report to the metrics (GET /metrics, lib/metrics.ts), as plain calls: the services know nothing
 * of Prometheus. Every method must be cheap and must not throw.
 */
export interface ServiceMetrics {
  /** A wrong admin password, or a login refused because the client is locked out. */
  loginFailed(reason: 'invalid_password' | 'locked_out'): void;
  /** A client reached the failed-login limit: its next attempts are refused until the window ends. */
  clientLockedOut(): void;
  /** One POST of an outgoing webhook delivery: answered 2xx, answered otherwise, or no answer (network, timeout). */
  webhookAttempt(result: 'success' | 'http_error' | 'network_error' | 'refused'): void;
  /** One owner mail of the contact outbox: sent, or failed (to be retried or given up). */
  contactMail(result: 'sent' | 'failed'): void;
}
