import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createJobRunner, type JobRunner } from '../../lib/job-runner';
import { createLogger } from '../../lib/logger';
import { testBackends, type TestDatabase } from '../../test-support/databases';
import { createWebhooksOutRepository } from '../outgoing-webhooks-repository';
import { createWebhooksOutService, leadCreatedData, type WebhooksOutServiceDeps } from '../outgoing-webhooks-service';
import { createWebhookSender } from '../webhook-sender';

/*
 * Issue 32: a receiver answering 503 with `Retry-After: 0` was retried at every outbox poll (6 attempts in 25 s, about
 * 17,000 a day per delivery, each stored). The next attempt is at max(backoff schedule, Retry-After), and attempts per
 * delivery are capped. The clock is the test's; the outbox runs when the test kicks it, as each poll would.
 */

/** 30 s doubling to an hour, without jitter, so the test can count what the schedule allows. */
const schedule = (attempt: number) => Math.min(30_000 * 2 ** (attempt - 1), 3600_000);
/** Attempts the schedule makes within `ms` of the first (the first included), polled every `pollMs`. */
function attemptsBySchedule(ms: number, pollMs: number): number {
  let at = 0;
  let n = 1;
  for (;;) {
    const due = at + schedule(n);
    // The poll that first sees it due sends it.
    const sent = Math.ceil(due / pollMs) * pollMs;
    if (sent > ms) return n;
    at = sent;
    n += 1;
  }
}

describe.each(testBackends())('outgoing webhook retries never come sooner than the schedule ($name)', (backend) => {
  let database: TestDatabase;
  let receiver: http.Server;
  let url: string;
  /** Requests received per endpoint (each test's endpoint has an address of its own). */
  const received = new Map<string, number>();
  let answer: { status: number; headers: Record<string, string> } = { status: 503, headers: {} };
  const runners: JobRunner[] = [];

  beforeAll(async () => {
    database = await backend.open();
    receiver = http.createServer((req, res) => {
      received.set(req.url!, (received.get(req.url!) ?? 0) + 1);
      req.resume();
      req.on('end', () => res.writeHead(answer.status, answer.headers).end('busy'));
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
  });
  afterEach(async () => {
    await Promise.all(runners.splice(0).map((r) => r.stop()));
  });
  afterAll(async () => {
    await new Promise<void>((resolve) => receiver.close(() => resolve()));
    await database?.dispose();
  });

  /** A service on the test's clock with one endpoint and one queued delivery; `poll()` is one run of the outbox. */
  async function oneDelivery(options: Pick<WebhooksOutServiceDeps, 'maxAttempts'> = {}) {
    let now = Date.parse('2026-11-26T08:00:00.000Z');
    const clock = () => new Date(now);
    const runner = createJobRunner({ clock, logger: createLogger({ level: 'silent' }) });
    runners.push(runner);
    const service = createWebhooksOutService({
      repository: createWebhooksOutRepository(database.handle.db),
      // The receiver is on 127.0.0.1: private targets allowed, as WEBHOOK_ALLOW_PRIVATE_TARGETS does.
      sender: createWebhookSender({ allowPrivateTargets: true }),
      allowPrivateTargets: true,
      clock,
      logger: createLogger({ level: 'silent' }),
      jobs: runner,
      retryDelayMs: schedule,
      ...options,
    });
    const endpoint = await service.createEndpoint({ url: `${url}?${Math.random()}`, events: ['lead.created'] });
    const path = new URL(endpoint.url).pathname + new URL(endpoint.url).search;
    const data = leadCreatedData({ id: 'm1', createdAt: clock().toISOString(), name: 'N', email: 'n@example.com', company: null, subject: null, message: 'hello' });
    await database.handle.db.transaction().execute((trx) => service.enqueueIn(trx, 'lead.created', data));
    const delivery = async () => (await service.deliveries(endpoint.id, {})).deliveries[0]!;
    return {
      service,
      delivery,
      received: () => received.get(path) ?? 0,
      attempts: async () => (await service.attempts(endpoint.id, (await delivery()).id)).attempts,
      now: () => now,
      advance: (ms: number) => (now += ms),
      set: (ms: number) => (now = ms),
      poll: () => service.processOutbox(),
    };
  }

  it('a 503 with Retry-After: 0 is retried on the backoff schedule, not at every poll', async () => {
    answer = { status: 503, headers: { 'retry-after': '0' } };
    const d = await oneDelivery();
    const start = d.now();
    const POLL = 5_000;
    const WINDOW = 20 * 60_000;
    await d.poll();
    while (d.now() - start < WINDOW) {
      d.advance(POLL);
      await d.poll();
    }
    // 30 s, 1, 2, 4, 8 min: 6 attempts in 20 minutes (the old rule made one at every poll: 241).
    expect(attemptsBySchedule(WINDOW, POLL)).toBe(6);
    expect(d.received()).toBe(attemptsBySchedule(WINDOW, POLL));
    const attempts = await d.attempts();
    expect(attempts).toHaveLength(d.received());
    // Each wait at least the schedule's for that retry.
    for (let i = 1; i < attempts.length; i++) {
      expect(Date.parse(attempts[i]!.at) - Date.parse(attempts[i - 1]!.at)).toBeGreaterThanOrEqual(schedule(i));
    }
    const last = await d.delivery();
    expect(last.status).toBe('pending');
    expect(Date.parse(last.nextAttemptAt!) - Date.parse(last.lastAttemptAt!)).toBe(schedule(d.received()));
  });

  it('a Retry-After longer than the schedule is honoured', async () => {
    answer = { status: 503, headers: { 'retry-after': '7200' } };
    const d = await oneDelivery();
    await d.poll();
    const first = await d.delivery();
    expect(first).toMatchObject({ status: 'pending', attempts: 1, responseStatus: 503 });
    expect(Date.parse(first.nextAttemptAt!) - d.now()).toBe(7_200_000);
    // Past the schedule's 30 s and up to a second before the receiver's two hours: nothing is sent.
    for (const step of [30_000, 3600_000, 3600_000 - 31_000]) {
      d.advance(step);
      await d.poll();
    }
    expect(d.received()).toBe(1);
    answer = { status: 200, headers: {} };
    d.set(Date.parse(first.nextAttemptAt!));
    await d.poll();
    expect(d.received()).toBe(2);
    expect(await d.delivery()).toMatchObject({ status: 'delivered', attempts: 2 });
  });

  it('gives up after the cap on attempts, inside the retry window', async () => {
    answer = { status: 503, headers: { 'retry-after': '0' } };
    const d = await oneDelivery({ maxAttempts: 4 });
    const start = d.now();
    await d.poll();
    // Six hours, polled every minute: the schedule alone would make more attempts than the cap.
    const WINDOW = 6 * 3600_000;
    expect(attemptsBySchedule(WINDOW, 60_000)).toBeGreaterThan(4);
    while (d.now() - start < WINDOW) {
      d.advance(60_000);
      await d.poll();
    }
    expect(d.received()).toBe(4);
    const last = await d.delivery();
    expect(last).toMatchObject({ status: 'failed', attempts: 4, nextAttemptAt: null });
    expect((await d.attempts()).map((a) => a.outcome)).toEqual(['retrying', 'retrying', 'retrying', 'failed']);
  });
});
