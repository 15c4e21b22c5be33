import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createJobRunner, type JobRunner, type JobTimers } from '../../lib/job-runner';
import { createLogger } from '../../lib/logger';
import { testBackends, type TestDatabase } from '../../test-support/databases';
import { createWebhooksOutRepository } from '../outgoing-webhooks-repository';
import { createWebhooksOutService, leadCreatedData, WEBHOOK_CLAIM_MS } from '../outgoing-webhooks-service';
import { createWebhookSender, type SendResult, type WebhookSender } from '../webhook-sender';

const handTimers: JobTimers = { set: () => 0, clear() {} };

/*
 * Issue 50: outgoing webhooks stay at-least-once with a stable id. Every attempt of a delivery carries the event's id
 * (X-Webhook-Id) and the same body, and a delivery a killed instance held is sent by another once its lease passed.
 */
describe.each(testBackends())('outgoing webhook leases and ids ($name)', (backend) => {
  let database: TestDatabase;
  let receiver: http.Server;
  let url: string;
  let answers: number[] = [];
  const received: Array<{ id: string; body: string }> = [];
  const runners: JobRunner[] = [];
  let now = Date.parse('2026-11-26T08:00:00.000Z');
  const clock = () => new Date(now);

  beforeAll(async () => {
    database = await backend.open();
    receiver = http.createServer((req, res) => {
      let body = '';
      req.setEncoding('utf8').on('data', (c: string) => (body += c));
      req.on('end', () => {
        received.push({ id: String(req.headers['x-webhook-id']), body });
        res.writeHead(answers.shift() ?? 204).end();
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
  });
  afterEach(async () => {
    await Promise.all(runners.splice(0).map((r) => r.stop()));
    received.length = 0;
    // Each test's endpoint alone is subscribed: an event is one delivery.
    for (const table of ['outgoing_webhook_attempts', 'outgoing_webhook_deliveries', 'outgoing_webhook_endpoints'] as const) await database.handle.db.deleteFrom(table).execute();
  });
  afterAll(async () => {
    await new Promise<void>((resolve) => receiver.close(() => resolve()));
    await database?.dispose();
  });

  function instance(db: TestDatabase['handle']['db'], sender: WebhookSender = createWebhookSender({ allowPrivateTargets: true })) {
    const runner = createJobRunner({ clock, logger: createLogger({ level: 'silent' }), timers: handTimers });
    runners.push(runner);
    return createWebhooksOutService({
      repository: createWebhooksOutRepository(db),
      sender,
      allowPrivateTargets: true,
      clock,
      logger: createLogger({ level: 'silent' }),
      jobs: runner,
      retryDelayMs: () => 30_000,
    });
  }

  async function queueOne(service: ReturnType<typeof instance>, id: string) {
    const endpoint = await service.createEndpoint({ url: `${url}?${id}`, events: ['lead.created'] });
    const data = leadCreatedData({ id, createdAt: clock().toISOString(), name: 'N', email: 'n@example.com', company: null, subject: null, message: 'hello' });
    await database.handle.db.transaction().execute((trx) => service.enqueueIn(trx, 'lead.created', data));
    return async () => (await service.deliveries(endpoint.id, {})).deliveries[0]!;
  }

  it('sends the same X-Webhook-Id and body on the retry after a 503', async () => {
    const a = instance(database.handle.db);
    const delivery = await queueOne(a, 'retry-1');
    answers = [503];
    expect(await a.processOutbox()).toBe(0);
    now += 30_000;
    expect(await a.processOutbox()).toBe(1);
    const d = await delivery();
    expect(d).toMatchObject({ status: 'delivered', attempts: 2 });
    expect(received.map((r) => r.id)).toEqual([d.eventId, d.eventId]);
    expect(received[1]!.body).toBe(received[0]!.body);
  });

  it('takes over the delivery of a killed instance once its lease (30 s) has passed, and not before; delivered stays delivered', async () => {
    expect(WEBHOOK_CLAIM_MS).toBeLessThanOrEqual(60_000);
    // Instance A claims the delivery and dies in the request: its send never returns (until the test ends it).
    let finish: ((result: SendResult) => void) | undefined;
    const killed = instance(database.handle.db, { post: () => new Promise<SendResult>((resolve) => (finish = resolve)) });
    const delivery = await queueOne(killed, 'killed-1');
    const hung = killed.processOutbox();
    await expect.poll(() => finish !== undefined).toBe(true);
    const b = instance((await database.another()).db);
    try {
      now += WEBHOOK_CLAIM_MS - 1000;
      expect(await b.processOutbox()).toBe(0);
      expect(received).toHaveLength(0);
      now += 1000;
      expect(await b.processOutbox()).toBe(1);
      expect(received).toHaveLength(1);
    } finally {
      // The dead instance's late failure does not undo the delivery nor bring a second send.
      finish?.({ kind: 'network', error: 'socket hang up', latencyMs: 10 });
      await hung;
    }
    expect(await delivery()).toMatchObject({ status: 'delivered' });
    now += 3600_000;
    expect(await b.processOutbox()).toBe(0);
    expect(received).toHaveLength(1);
  });
});
