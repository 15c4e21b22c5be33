import type { Kysely } from 'kysely';
import type { Database } from '../db/schema';
import type { WebhooksOutTables } from './outgoing-webhooks-schema';

type EndpointRow = WebhooksOutTables['outgoing_webhook_endpoints'];
type DeliveryRow = WebhooksOutTables['outgoing_webhook_deliveries'];

export interface StoredWebhookEndpoint {
  id: string;
  url: string;
  description: string;
  events: string[];
  enabled: boolean;
  secret: string;
  disabledReason: string | null;
  failingSince: string | null;
  createdAt: string;
  updatedAt: string;
}

export interface StoredWebhookDelivery {
  id: string;
  endpointId: string;
  eventId: string;
  eventType: string;
  payload: string;
  createdAt: string;
  status: 'pending' | 'delivered' | 'failed';
  attempts: number;
  nextAttemptAt: string | null;
  lastAttemptAt: string | null;
  responseStatus: number | null;
  latencyMs: number | null;
  responseExcerpt: string | null;
  deliveredAt: string | null;
  redeliveryOf: string | null;
  /** The request whose change queued it, if one did (its X-Request-Id). */
  requestId?: string | null;
  /** That request's W3C `traceparent` (its trace and span), continued by each attempt. */
  traceparent?: string | null;
}

export interface StoredWebhookAttempt {
  attempt: number;
  at: string;
  outcome: 'delivered' | 'retrying' | 'failed';
  responseStatus: number | null;
  latencyMs: number | null;
  responseExcerpt: string | null;
}

export interface AttemptOutcome {
  at: string;
  attempts: number;
  responseStatus: number | null;
  latencyMs: number | null;
  responseExcerpt: string | null;
  /** delivered, failed for good, or pending again at `nextAttemptAt`. */
  status: 'pending' | 'delivered' | 'failed';
  nextAttemptAt: string | null;
}

export interface WebhooksOutRepository {
  listEndpoints(): Promise<StoredWebhookEndpoint[]>;
  findEndpoint(id: string): Promise<StoredWebhookEndpoint | undefined>;
  insertEndpoint(endpoint: StoredWebhookEndpoint): Promise<void>;
  updateEndpoint(endpoint: StoredWebhookEndpoint): Promise<void>;
  /** Deletes the endpoint and its deliveries. False when it did not exist. */
  deleteEndpoint(id: string): Promise<boolean>;
  /** Enabled endpoints subscribed to `eventType`. */
  subscribers(eventType: string): Promise<StoredWebhookEndpoint[]>;
  insertDeliveries(deliveries: StoredWebhookDelivery[]): Promise<void>;
  /** The same repository on `trx` (the outbox rows of a change are written in the change's transaction). */
  on(trx: Kysely<Database>): WebhooksOutRepository;
  findDelivery(id: string): Promise<StoredWebhookDelivery | undefined>;
  /** Newest first. */
  listDeliveries(endpointId: string, limit: number): Promise<StoredWebhookDelivery[]>;
  /** Pending deliveries due at `now` whose endpoint is enabled, oldest first. */
  due(now: string, limit: number): Promise<StoredWebhookDelivery[]>;
  /**
   * Takes a due delivery: true for exactly one caller of any instance until `leaseUntil` (then it is due again, so a
   * delivery whose instance died mid-send is retried). One atomic UPDATE on SQLite and PostgreSQL.
   */
  claim(id: string, now: string, leaseUntil: string): Promise<boolean>;
  /** Updates the delivery with its latest attempt and adds the attempt to its history, in one transaction. */
  recordAttempt(id: string, outcome: AttemptOutcome): Promise<void>;
  /** Every attempt of a delivery, oldest first. */
  listAttempts(deliveryId: string): Promise<StoredWebhookAttempt[]>;
  /** Sets `failing_since` when unset (first failure); returns the endpoint as stored after. */
  markEndpointFailing(id: string, since: string): Promise<StoredWebhookEndpoint | undefined>;
  markEndpointHealthy(id: string): Promise<void>;
  /** Turns the endpoint off with a reason: true for the one caller that did it (the alert is raised once). */
  disableEndpoint(id: string, reason: string, at: string): Promise<boolean>;
}

export function createWebhooksOutRepository(db: Kysely<Database>): WebhooksOutRepository {
  const endpointValues = (e: StoredWebhookEndpoint): EndpointRow => ({
    id: e.id,
    url: e.url,
    description: e.description,
    events: JSON.stringify(e.events),
    enabled: e.enabled ? 1 : 0,
    secret: e.secret,
    disabled_reason: e.disabledReason,
    failing_since: e.failingSince,
    created_at: e.createdAt,
    updated_at: e.updatedAt,
  });
  const findEndpoint = async (id: string) => {
    const row = await db.selectFrom('outgoing_webhook_endpoints').selectAll().where('id', '=', id).executeTakeFirst();
    return row && toEndpoint(row);
  };
  return {
    async listEndpoints() {
      const rows = await db.selectFrom('outgoing_webhook_endpoints').selectAll().orderBy('created_at').orderBy('id').execute();
      return rows.map(toEndpoint);
    },
    findEndpoint,
    async insertEndpoint(e) {
      await db.insertInto('outgoing_webhook_endpoints').values(endpointValues(e)).execute();
    },
    async updateEndpoint(e) {
      const { id: _id, created_at: _created, ...rest } = endpointValues(e);
      await db.updateTable('outgoing_webhook_endpoints').set(rest).where('id', '=', e.id).execute();
    },
    async deleteEndpoint(id) {
      return db.transaction().execute(async (trx) => {
        await trx
          .deleteFrom('outgoing_webhook_attempts')
          .where('delivery_id', 'in', (eb) => eb.selectFrom('outgoing_webhook_deliveries').select('id').where('endpoint_id', '=', id))
          .execute();
        await trx.deleteFrom('outgoing_webhook_deliveries').where('endpoint_id', '=', id).execute();
        const result = await trx.deleteFrom('outgoing_webhook_endpoints').where('id', '=', id).executeTakeFirst();
        return Number(result.numDeletedRows) === 1;
      });
    },
    async subscribers(eventType) {
      // A handful of endpoints: the JSON list is filtered here rather than with dialect-specific JSON SQL.
      const rows = await db.selectFrom('outgoing_webhook_endpoints').selectAll().where('enabled', '=', 1).execute();
      return rows.map(toEndpoint).filter((e) => e.events.includes(eventType));
    },
    on: (trx) => createWebhooksOutRepository(trx),
    async insertDeliveries(deliveries) {
      if (deliveries.length === 0) return;
      await db
        .insertInto('outgoing_webhook_deliveries')
        .values(
          deliveries.map((d) => ({
            id: d.id,
            endpoint_id: d.endpointId,
            event_id: d.eventId,
            event_type: d.eventType,
            payload: d.payload,
            created_at: d.createdAt,
            status: d.status,
            attempts: d.attempts,
            next_attempt_at: d.nextAttemptAt,
            last_attempt_at: d.lastAttemptAt,
            response_status: d.responseStatus,
            latency_ms: d.latencyMs,
            response_excerpt: d.responseExcerpt,
            delivered_at: d.deliveredAt,
            redelivery_of: d.redeliveryOf,
            request_id: d.requestId ?? null,
            traceparent: d.traceparent ?? null,
          })),
        )
        .execute();
    },
    async findDelivery(id) {
      const row = await db.selectFrom('outgoing_webhook_deliveries').selectAll().where('id', '=', id).executeTakeFirst();
      return row && toDelivery(row);
    },
    async listDeliveries(endpointId, limit) {
      const rows = await db
        .selectFrom('outgoing_webhook_deliveries')
        .selectAll()
        .where('endpoint_id', '=', endpointId)
        .orderBy('created_at', 'desc')
        .orderBy('id', 'desc')
        .limit(limit)
        .execute();
      return rows.map(toDelivery);
    },
    async due(now, limit) {
      const rows = await db
        .selectFrom('outgoing_webhook_deliveries as d')
        .innerJoin('outgoing_webhook_endpoints as e', 'e.id', 'd.endpoint_id')
        .selectAll('d')
        .where('d.status', '=', 'pending')
        .where('e.enabled', '=', 1)
        .where((eb) => eb.or([eb('d.next_attempt_at', 'is', null), eb('d.next_attempt_at', '<=', now)]))
        .orderBy('d.created_at')
        .limit(limit)
        .execute();
      return rows.map(toDelivery);
    },
    async claim(id, now, leaseUntil) {
      const result = await db
        .updateTable('outgoing_webhook_deliveries')
        .set({ next_attempt_at: leaseUntil })
        .where('id', '=', id)
        .where('status', '=', 'pending')
        .where((eb) => eb.or([eb('next_attempt_at', 'is', null), eb('next_attempt_at', '<=', now)]))
        .executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },
    async recordAttempt(id, o) {
      await db.transaction().execute(async (trx) => {
        await trx
          .insertInto('outgoing_webhook_attempts')
          .values({
            delivery_id: id,
            attempt: o.attempts,
            at: o.at,
            outcome: o.status === 'pending' ? 'retrying' : o.status,
            response_status: o.responseStatus,
            latency_ms: o.latencyMs,
            response_excerpt: o.responseExcerpt,
          })
          // A lease that ran out mid-send (the other instance then tried too) records the first of the two.
          .onConflict((oc) => oc.columns(['delivery_id', 'attempt']).doNothing())
          .execute();
        await trx
          .updateTable('outgoing_webhook_deliveries')
          .set({
            status: o.status,
            attempts: o.attempts,
            next_attempt_at: o.nextAttemptAt,
            last_attempt_at: o.at,
            response_status: o.responseStatus,
            latency_ms: o.latencyMs,
            response_excerpt: o.responseExcerpt,
            delivered_at: o.status === 'delivered' ? o.at : null,
          })
          .where('id', '=', id)
          // Delivered is final: a late failure of an instance whose lease ran out never sends it again.
          .where('status', '!=', 'delivered')
          .execute();
      });
    },
    async listAttempts(deliveryId) {
      const rows = await db.selectFrom('outgoing_webhook_attempts').selectAll().where('delivery_id', '=', deliveryId).orderBy('attempt').execute();
      return rows.map((r) => ({
        attempt: Number(r.attempt),
        at: r.at,
        outcome: r.outcome,
        responseStatus: r.response_status === null ? null : Number(r.response_status),
        latencyMs: r.latency_ms === null ? null : Number(r.latency_ms),
        responseExcerpt: r.response_excerpt,
      }));
    },
    async markEndpointFailing(id, since) {
      await db.updateTable('outgoing_webhook_endpoints').set({ failing_since: since }).where('id', '=', id).where('failing_since', 'is', null).execute();
      return findEndpoint(id);
    },
    async markEndpointHealthy(id) {
      await db.updateTable('outgoing_webhook_endpoints').set({ failing_since: null }).where('id', '=', id).where('failing_since', 'is not', null).execute();
    },
    async disableEndpoint(id, reason, at) {
      const result = await db
        .updateTable('outgoing_webhook_endpoints')
        .set({ enabled: 0, disabled_reason: reason, updated_at: at })
        .where('id', '=', id)
        .where('enabled', '=', 1)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },
  };
}

function toEndpoint(row: EndpointRow): StoredWebhookEndpoint {
  let events: unknown;
  try {
    events = JSON.parse(row.events);
  } catch {
    events = [];
  }
  return {
    id: row.id,
    url: row.url,
    description: row.description,
    events: Array.isArray(events) ? events.filter((e): e is string => typeof e === 'string') : [],
    enabled: Number(row.enabled) === 1,
    secret: row.secret,
    disabledReason: row.disabled_reason,
    failingSince: row.failing_since,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

function toDelivery(row: DeliveryRow): StoredWebhookDelivery {
  return {
    id: row.id,
    endpointId: row.endpoint_id,
    eventId: row.event_id,
    eventType: row.event_type,
    payload: row.payload,
    createdAt: row.created_at,
    status: row.status,
    attempts: Number(row.attempts),
    nextAttemptAt: row.next_attempt_at,
    lastAttemptAt: row.last_attempt_at,
    responseStatus: row.response_status === null ? null : Number(row.response_status),
    latencyMs: row.latency_ms === null ? null : Number(row.latency_ms),
    responseExcerpt: row.response_excerpt,
    deliveredAt: row.delivered_at,
    redeliveryOf: row.redelivery_of,
    requestId: row.request_id,
    traceparent: row.traceparent,
  };
}
