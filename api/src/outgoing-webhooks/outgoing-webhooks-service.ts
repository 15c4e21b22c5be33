import { randomBytes, randomUUID } from 'node:crypto';
import {
  WEBHOOK_HEADERS,
  WEBHOOK_MAX_ENDPOINTS,
  WEBHOOK_MESSAGES,
  WEBHOOK_RESPONSE_EXCERPT_BYTES,
  WEBHOOK_TEST_EVENT,
  WEBHOOK_TEST_MESSAGE,
  webhookDeliveryListQuerySchema,
  webhookEndpointCreateSchema,
  webhookEndpointUpdateSchema,
  type WebhookAttemptList,
  type WebhookDelivery,
  type WebhookDeliveryList,
  type WebhookEndpoint,
  type WebhookEndpointList,
  type WebhookEndpointWithSecret,
  type WebhookEventType,
  type WebhookPayload,
  type WebhookTestPayload,
} from '@site/contracts/webhooks-out';
import type { StoredWebhookDelivery, StoredWebhookEndpoint, WebhooksOutRepository } from './outgoing-webhooks-repository';
import type { Kysely } from 'kysely';
import type { ChangeEvents } from '../db/in-transaction';
import type { Database } from '../db/schema';
import type { Clock } from '../lib/clock';
import type { JobOutcome, JobRun, JobRunner } from '../lib/job-runner';
import { currentOrigin, inRequestOf } from '../lib/request-context';
import { ConflictError, InvalidInputError, NotFoundError } from '../lib/domain-errors';
import type { Logger } from '../lib/logger';
import type { AlertService } from '../admin/alert-service';
import { blogPostPath } from '@site/contracts/blog-routes';
import { describeIssues } from '@site/contracts/error';
import { queryNumberIssues } from '@site/contracts/query-numbers';
import { isRecordKey } from '@site/contracts/text';
import { signWebhookBody } from '../incoming-webhook/incoming-webhook-service';
import type { WebhookSender } from './webhook-sender';
import { afterAttempt, endpointFailed } from './delivery-outcome';
import { savedTargetProblem } from './webhook-targets';

type EventData<T extends WebhookEventType> = Extract<WebhookPayload, { type: T }>['data'];

/** The event a 'Send test event' delivers (not subscribable). */
export const TEST_EVENT = WEBHOOK_TEST_EVENT;

export interface WebhooksOutService {
  listEndpoints(): Promise<WebhookEndpointList>;
  /** Validates with the contract; answers the endpoint with its new secret (the one time it is shown). */
  createEndpoint(input: unknown): Promise<WebhookEndpointWithSecret>;
  /** With `regenerateSecret: true` the answer carries the new secret. */
  updateEndpoint(id: string, input: unknown): Promise<WebhookEndpoint | WebhookEndpointWithSecret>;
  deleteEndpoint(id: string): Promise<void>;
  /** Queues a `webhook.test` event for the endpoint, tries it at once and answers the delivery as it stands. */
  sendTest(id: string): Promise<WebhookDelivery>;
  deliveries(id: string, query: unknown): Promise<WebhookDeliveryList>;
  /** Every attempt of one of the endpoint's deliveries, oldest first. */
  attempts(id: string, deliveryId: string): Promise<WebhookAttemptList>;
  /** Sends a delivery's event again (same event id and body) as a new delivery, tried at once. */
  redeliver(id: string, deliveryId: string): Promise<WebhookDelivery>;
  /**
   * Writes one delivery per subscribed endpoint (the outbox) with `trx`, the transaction storing the change the event
   * tells of: the change and its deliveries are committed together, so a crash cannot keep one without the other.
   * Throws what the database throws (the caller's transaction then rolls back). Call `kick()` after the commit.
   */
  enqueueIn<T extends WebhookEventType>(trx: Kysely<Database>, type: T, data: EventData<T>): Promise<void>;
  /** The events of a kind as a service's `ChangeEvents` (written in its transaction, sent after the commit). */
  changeEvents<E>(toEvent: (change: E) => { [T in WebhookEventType]: { type: T; data: EventData<T> } }[WebhookEventType]): ChangeEvents<E>;
  /** Sends what was queued without waiting (after a commit). */
  kick(): void;
  /** Sends what is due now (the `webhook-deliveries` job's run); returns how many were delivered. Never throws. */
  processOutbox(): Promise<number>;
}

export interface WebhooksOutServiceDeps {
  repository: WebhooksOutRepository;
  sender: WebhookSender;
  clock: Clock;
  logger: Logger;
  /** Where an endpoint disabled after 24 h of failures is reported. */
  alerts?: Pick<AlertService, 'notify'>;
  newId?: () => string;
  /** Runs the outbox as its `webhook-deliveries` job: at start, every `pollMs`, after each committed event. */
  jobs: Pick<JobRunner, 'add'>;
  /** How often each instance looks for due deliveries (default 5 s); a new event is sent at once anyway. */
  pollMs?: number;
  /**
   * How long a claimed delivery belongs to the instance sending it (default WEBHOOK_CLAIM_MS, 30 s: a send gives up
   * within 10 s, and a killed instance's delivery is taken over within this and a poll).
   */
  claimLeaseMs?: number;
  /**
   * The backoff schedule: the least delay before retry n (1-based); default 30 s doubling to 1 h, ±20 % jitter. A
   * receiver's Retry-After can make the wait longer, never shorter.
   */
  retryDelayMs?: (attempt: number) => number;
  /** Attempts per delivery, the first included, after which it is failed (default 40; the schedule fits 27 to 37 in the 24 h window). */
  maxAttempts?: number;
  /** Deliveries sent at the same time (default 8). */
  concurrency?: number;
  /**
   * WEBHOOK_ALLOW_PRIVATE_TARGETS: an endpoint may be saved with a private or loopback address (the sender, given the
   * same setting, checks again when it sends). Off by default. Link-local and metadata addresses are refused always.
   */
  allowPrivateTargets?: boolean;
}

const defaultRetryDelay = (attempt: number) => Math.min(30_000 * 2 ** (attempt - 1), 3600_000) * (0.8 + Math.random() * 0.4);
/** The default lease of a claimed delivery (three times the longest send, 10 s). */
export const WEBHOOK_CLAIM_MS = 30_000;
/**
 * A backstop on attempts per delivery, whatever the schedule and window: the default schedule reaches 27 to 37 in
 * its 24 hours (jitter), so by default the window ends retries and this never does.
 */
export const DEFAULT_MAX_WEBHOOK_ATTEMPTS = 40;

const newSecret = () => `whsec_${randomBytes(32).toString('base64url')}`;

function toEndpoint(e: StoredWebhookEndpoint): WebhookEndpoint {
  return {
    id: e.id,
    url: e.url,
    description: e.description,
    events: e.events as WebhookEndpoint['events'],
    enabled: e.enabled,
    disabledReason: e.disabledReason,
    failingSince: e.failingSince,
    createdAt: e.createdAt,
    updatedAt: e.updatedAt,
  };
}

function toDelivery(d: StoredWebhookDelivery): WebhookDelivery {
  return {
    id: d.id,
    endpointId: d.endpointId,
    eventId: d.eventId,
    event: d.eventType as WebhookDelivery['event'],
    createdAt: d.createdAt,
    status: d.status,
    attempts: d.attempts,
    lastAttemptAt: d.lastAttemptAt,
    nextAttemptAt: d.status === 'pending' ? d.nextAttemptAt : null,
    responseStatus: d.responseStatus,
    latencyMs: d.latencyMs,
    responseExcerpt: d.responseExcerpt,
    redeliveryOf: d.redeliveryOf,
  };
}

/** An endpoint's URL that its address alone refuses (metadata always; private unless allowed): the contract's 400. */
function checkSavedUrl(url: string | undefined, allowPrivate: boolean): void {
  const problem = url === undefined ? undefined : savedTargetProblem(url, allowPrivate);
  if (problem) throw invalid({ issues: [{ path: ['url'], message: problem }] });
}

function invalid(error: { issues: Array<{ path: PropertyKey[]; message: string }> }): InvalidInputError {
  const details = error.issues.map((i) => ({ path: i.path.join('.'), message: i.message }));
  return new InvalidInputError(`Validation failed: ${details.map((d) => `${d.path}: ${d.message}`).join(', ')}`, { details });
}

export function createWebhooksOutService(deps: WebhooksOutServiceDeps): WebhooksOutService {
  const { repository, clock, logger } = deps;
  const newId = deps.newId ?? randomUUID;
  const retryDelay = deps.retryDelayMs ?? defaultRetryDelay;
  const maxAttempts = deps.maxAttempts ?? DEFAULT_MAX_WEBHOOK_ATTEMPTS;
  const concurrency = deps.concurrency ?? 8;
  const allowPrivate = deps.allowPrivateTargets === true;

  const mustFind = async (id: string) => {
    // An id that cannot exist (PostgreSQL refuses NUL in text) is not found without asking the database.
    const endpoint = isRecordKey(id) ? await repository.findEndpoint(id) : undefined;
    if (!endpoint) throw new NotFoundError(WEBHOOK_MESSAGES.notFound, { code: 'webhook_not_found' });
    return endpoint;
  };

  async function attempt(d: StoredWebhookDelivery, endpoint: StoredWebhookEndpoint): Promise<boolean> {
    const now = clock();
    const timestamp = Math.floor(now.getTime() / 1000);
    const result = await deps.sender.post(endpoint.url, d.payload, {
      'content-type': 'application/json',
      'user-agent': 'TriValley-Webhooks/1',
      [WEBHOOK_HEADERS.signature.toLowerCase()]: signWebhookBody(endpoint.secret, d.payload, timestamp),
      [WEBHOOK_HEADERS.event.toLowerCase()]: d.eventType,
      [WEBHOOK_HEADERS.id.toLowerCase()]: d.eventId,
    });
    const at = clock();
    const attempts = d.attempts + 1;
    const { delivered, status, nextAttemptAt } = afterAttempt(result, d.createdAt, at, attempts, { maxAttempts, retryDelay });
    await repository.recordAttempt(d.id, {
      at: at.toISOString(),
      attempts,
      status,
      nextAttemptAt,
      responseStatus: result.kind === 'answered' ? result.status : null,
      latencyMs: result.latencyMs,
      responseExcerpt: (result.kind === 'answered' ? result.excerpt : result.kind === 'network' ? result.error : result.reason).slice(0, WEBHOOK_RESPONSE_EXCERPT_BYTES),
    });
    if (delivered) {
      await repository.markEndpointHealthy(endpoint.id);
    } else {
      if (result.kind === 'refused') {
        logger.warn({ webhookDeliveryId: d.id, webhookEndpointId: endpoint.id, event: d.eventType, reason: result.reason }, 'outgoing webhook delivery refused: target not allowed');
      } else {
        logger.info(
          { webhookDeliveryId: d.id, event: d.eventType, status: result.kind === 'answered' ? result.status : result.error, attempts, next: nextAttemptAt },
          'outgoing webhook delivery failed',
        );
      }
      await endpointFailed(deps, endpoint.id, at);
    }
    return delivered;
  }

  /** One run of the job: batches of due deliveries, each claimed (compare-and-set) before it is sent, until none is left. */
  async function deliverDue(run: JobRun): Promise<JobOutcome> {
    let delivered = 0;
    for (;;) {
      const due = await repository.due(run.now().toISOString(), 50);
      if (due.length === 0) break;
      let claimedAny = false;
      const queue = [...due];
      const endpoints = new Map<string, Promise<StoredWebhookEndpoint | undefined>>();
      const worker = async () => {
        for (let d = queue.shift(); d && !run.signal.aborted; d = queue.shift()) {
          // Every instance runs this job: only the one whose claim succeeds sends, so a delivery goes out once.
          if (!(await repository.claim(d.id, run.now().toISOString(), run.leaseUntil().toISOString()))) continue;
          claimedAny = true;
          if (!endpoints.has(d.endpointId)) endpoints.set(d.endpointId, repository.findEndpoint(d.endpointId));
          const endpoint = await endpoints.get(d.endpointId);
          if (!endpoint) continue;
          try {
            // Its log lines (and spans) carry the id and trace of the request whose change queued it; the attempt's
            // traceparent continues that trace.
            if (await inRequestOf(d, () => attempt(d, endpoint))) delivered += 1;
          } catch (err) {
            logger.error({ err, webhookDeliveryId: d.id }, 'outgoing webhook attempt could not be recorded');
          }
        }
      };
      await Promise.all(Array.from({ length: Math.min(concurrency, due.length) }, worker));
      if (!claimedAny || run.signal.aborted) break;
    }
    return { done: delivered };
  }

  const job = deps.jobs.add({ name: 'webhook-deliveries', pollMs: deps.pollMs ?? 5_000, claimMs: deps.claimLeaseMs ?? WEBHOOK_CLAIM_MS, run: deliverDue });
  const processOutbox = async (): Promise<number> => (await job.kick())?.done ?? 0;

  async function enqueue(
    endpoints: StoredWebhookEndpoint[],
    type: string,
    eventId: string,
    payload: string,
    createdAt: string,
    redeliveryOf: string | null = null,
    store: WebhooksOutRepository = repository,
  ) {
    const rows: StoredWebhookDelivery[] = endpoints.map((e) => ({
      id: newId(),
      endpointId: e.id,
      eventId,
      eventType: type,
      payload,
      createdAt,
      status: 'pending',
      attempts: 0,
      nextAttemptAt: null,
      lastAttemptAt: null,
      responseStatus: null,
      latencyMs: null,
      responseExcerpt: null,
      deliveredAt: null,
      redeliveryOf,
      ...currentOrigin(),
    }));
    await store.insertDeliveries(rows);
    return rows;
  }

  async function tryNow(deliveryId: string): Promise<WebhookDelivery> {
    await processOutbox();
    // A run already in progress when the row was written may have missed it.
    await processOutbox();
    const stored = await repository.findDelivery(deliveryId);
    if (!stored) throw new NotFoundError(WEBHOOK_MESSAGES.deliveryNotFound, { code: 'delivery_not_found' });
    return toDelivery(stored);
  }

  const service: WebhooksOutService = {
    async listEndpoints() {
      return { endpoints: (await repository.listEndpoints()).map(toEndpoint) };
    },

    async createEndpoint(input) {
      const parsed = webhookEndpointCreateSchema.safeParse(input ?? {});
      if (!parsed.success) throw invalid(parsed.error);
      checkSavedUrl(parsed.data.url, allowPrivate);
      const now = clock().toISOString();
      const endpoint: StoredWebhookEndpoint = {
        id: newId(),
        url: parsed.data.url,
        description: parsed.data.description,
        events: [...new Set(parsed.data.events)],
        enabled: parsed.data.enabled,
        secret: newSecret(),
        disabledReason: null,
        failingSince: null,
        createdAt: now,
        updatedAt: now,
      };
      // The slot is taken first, then counted: of racing creates past the limit, none stays over it.
      await repository.insertEndpoint(endpoint);
      if ((await repository.listEndpoints()).length > WEBHOOK_MAX_ENDPOINTS) {
        await repository.deleteEndpoint(endpoint.id);
        throw new ConflictError(WEBHOOK_MESSAGES.tooMany, { code: 'webhook_limit' });
      }
      return { ...toEndpoint(endpoint), secret: endpoint.secret };
    },

    async updateEndpoint(id, input) {
      const parsed = webhookEndpointUpdateSchema.safeParse(input ?? {});
      if (!parsed.success) throw invalid(parsed.error);
      checkSavedUrl(parsed.data.url, allowPrivate);
      const existing = await mustFind(id);
      const { regenerateSecret, ...changes } = parsed.data;
      const reenabled = changes.enabled === true && !existing.enabled;
      const updated: StoredWebhookEndpoint = {
        ...existing,
        ...(changes.url !== undefined ? { url: changes.url } : {}),
        ...(changes.description !== undefined ? { description: changes.description } : {}),
        ...(changes.events !== undefined ? { events: [...new Set(changes.events)] } : {}),
        ...(changes.enabled !== undefined ? { enabled: changes.enabled } : {}),
        // Turned on again by the owner: a fresh start for the 24 h failure count.
        ...(reenabled ? { disabledReason: null, failingSince: null } : {}),
        ...(regenerateSecret ? { secret: newSecret() } : {}),
        updatedAt: clock().toISOString(),
      };
      await repository.updateEndpoint(updated);
      if (reenabled) void processOutbox();
      return regenerateSecret ? { ...toEndpoint(updated), secret: updated.secret } : toEndpoint(updated);
    },

    async deleteEndpoint(id) {
      if (!isRecordKey(id) || !(await repository.deleteEndpoint(id))) throw new NotFoundError(WEBHOOK_MESSAGES.notFound, { code: 'webhook_not_found' });
    },

    async sendTest(id) {
      const endpoint = await mustFind(id);
      if (!endpoint.enabled) throw new InvalidInputError('Enable the endpoint before sending a test event.', { code: 'webhook_disabled' });
      const createdAt = clock().toISOString();
      const eventId = `evt_${randomUUID().replaceAll('-', '')}`;
      const payload = JSON.stringify({ id: eventId, type: TEST_EVENT, createdAt, data: { message: WEBHOOK_TEST_MESSAGE } } satisfies WebhookTestPayload);
      const [row] = await enqueue([endpoint], TEST_EVENT, eventId, payload, createdAt);
      return tryNow(row!.id);
    },

    async deliveries(id, query) {
      await mustFind(id);
      const issues = queryNumberIssues(webhookDeliveryListQuerySchema, (query ?? {}) as Record<string, unknown>);
      if (issues.length > 0) throw new InvalidInputError(describeIssues(issues), { details: issues });
      const parsed = webhookDeliveryListQuerySchema.safeParse(query ?? {});
      if (!parsed.success) throw invalid(parsed.error);
      return { deliveries: (await repository.listDeliveries(id, parsed.data.limit)).map(toDelivery) };
    },

    async attempts(id, deliveryId) {
      await mustFind(id);
      const delivery = isRecordKey(deliveryId) ? await repository.findDelivery(deliveryId) : undefined;
      if (!delivery || delivery.endpointId !== id) throw new NotFoundError(WEBHOOK_MESSAGES.deliveryNotFound, { code: 'delivery_not_found' });
      return { attempts: await repository.listAttempts(deliveryId) };
    },

    async redeliver(id, deliveryId) {
      const endpoint = await mustFind(id);
      const original = isRecordKey(deliveryId) ? await repository.findDelivery(deliveryId) : undefined;
      if (!original || original.endpointId !== id) throw new NotFoundError(WEBHOOK_MESSAGES.deliveryNotFound, { code: 'delivery_not_found' });
      if (!endpoint.enabled) throw new InvalidInputError('Enable the endpoint before redelivering.', { code: 'webhook_disabled' });
      // Same event id and body: a receiver that already has it ignores it; a new retry window from now.
      const [row] = await enqueue([endpoint], original.eventType, original.eventId, original.payload, clock().toISOString(), original.id);
      return tryNow(row!.id);
    },

    async enqueueIn(trx, type, data) {
      const store = repository.on(trx);
      const endpoints = await store.subscribers(type);
      if (endpoints.length === 0) return;
      const createdAt = clock().toISOString();
      const eventId = `evt_${randomUUID().replaceAll('-', '')}`;
      const payload = JSON.stringify({ id: eventId, type, createdAt, data });
      await enqueue(endpoints, type, eventId, payload, createdAt, null, store);
    },

    changeEvents(toEvent) {
      return {
        inTransaction: (change) => (trx) => {
          const { type, data } = toEvent(change);
          return service.enqueueIn(trx, type, data as never);
        },
        committed: () => service.kick(),
      };
    },

    kick() {
      void job.kick();
    },

    processOutbox,
  };
  return service;
}

// ------------------------------------------------------------------------------------------------ payloads

/** `lead.created`: the fields the owner sees in the leads inbox (not the IP hash or user agent). */
export function leadCreatedData(m: { id: string; createdAt: string; name: string; email: string; company: string | null; subject: string | null; message: string }) {
  return { id: m.id, createdAt: m.createdAt, name: m.name, email: m.email, company: m.company, subject: m.subject, message: m.message };
}

/** `analysis.completed`: what the visitor typed (business, location) and the result, with the report's permalink. */
export function analysisCompletedData(
  stored: { id: string; mode: 'smb' | 'website'; report: { analyzedAt: string; businessInfo: { businessName: string; location: string | null }; scores: { overall: { score: number } } } },
  publicOrigin: string,
) {
  return {
    id: stored.id,
    mode: stored.mode,
    businessName: stored.report.businessInfo.businessName,
    location: stored.report.businessInfo.location,
    score: stored.report.scores.overall.score,
    analyzedAt: stored.report.analyzedAt,
    reportUrl: new URL(`/free-analysis/report/${encodeURIComponent(stored.id)}`, publicOrigin).href,
  };
}

/** `post.*`: the post's public facts and page (null once deleted or while not published), not its content. */
export function postEventData(
  post: { id: string; title: string; slug: string; excerpt: string; status: string; category: string; author: string; publishedAt: string | null; updatedAt: string },
  publicOrigin: string,
  deleted = false,
) {
  return {
    id: post.id,
    title: post.title,
    slug: post.slug,
    excerpt: post.excerpt,
    status: post.status,
    category: post.category,
    author: post.author,
    publishedAt: post.publishedAt,
    updatedAt: post.updatedAt,
    url: !deleted && post.status === 'published' ? new URL(blogPostPath(post.slug), publicOrigin).href : null,
  };
}
