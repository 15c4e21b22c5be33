/** Outgoing webhooks (migrations/0011-outgoing-webhooks.ts). */
export interface WebhooksOutTables {
  outgoing_webhook_endpoints: {
    id: string;
    url: string;
    description: string;
    /** JSON array of event types. */
    events: string;
    enabled: number;
    secret: string;
    disabled_reason: string | null;
    failing_since: string | null;
    created_at: string;
    updated_at: string;
  };
  outgoing_webhook_deliveries: {
    id: string;
    endpoint_id: string;
    event_id: string;
    event_type: string;
    /** The exact JSON body that is signed and sent. */
    payload: string;
    created_at: string;
    status: 'pending' | 'delivered' | 'failed';
    attempts: number;
    next_attempt_at: string | null;
    last_attempt_at: string | null;
    response_status: number | null;
    latency_ms: number | null;
    response_excerpt: string | null;
    delivered_at: string | null;
    redelivery_of: string | null;
    /** The request whose change queued it (X-Request-Id), for its log lines (migration 0014). */
    request_id: string | null;
    /** That request's W3C `traceparent`, which each attempt's own `traceparent` continues (migration 0026). */
    traceparent: string | null;
  };
  /** migrations/0013-webhook-attempts.ts */
  outgoing_webhook_attempts: {
    delivery_id: string;
    attempt: number;
    at: string;
    outcome: 'delivered' | 'retrying' | 'failed';
    response_status: number | null;
    latency_ms: number | null;
    response_excerpt: string | null;
  };
}
