import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { WEBHOOK_MAX_ENDPOINTS, WEBHOOK_MESSAGES, WEBHOOK_PAYLOAD_SCHEMAS, webhookAttemptListSchema, webhookDeliveryListSchema, webhookEndpointListSchema, type WebhookDelivery } from '@site/contracts/webhooks-out';
import { verifyWebhookSignature } from '../../incoming-webhook/incoming-webhook-service';
import { ADMIN_ENV, adminCookie } from '../../test-support/admin-session';
import { startTestServer, type TestServer } from '../../test-support/test-server';
import { createLogger } from '../../lib/logger';

/** A loopback receiver: records every request, answers what `answer` says (200 by default). */
interface Received {
  headers: http.IncomingHttpHeaders;
  body: string;
  at: number;
}
async function startReceiver(port = 0, answer: (r: Received) => { status: number; headers?: Record<string, string>; body?: string } = () => ({ status: 200 })) {
  const received: Received[] = [];
  const waiters: Array<() => void> = [];
  const server = http.createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (c: string) => (body += c));
    req.on('end', () => {
      const r = { headers: req.headers, body, at: Date.now() };
      received.push(r);
      const a = answer(r);
      res.writeHead(a.status, a.headers).end(a.body ?? 'ok');
      for (const w of waiters.splice(0)) w();
    });
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const actualPort = (server.address() as AddressInfo).port;
  return {
    port: actualPort,
    url: `http://127.0.0.1:${actualPort}/hook`,
    received,
    /** Resolves once `n` requests arrived, or rejects after `ms`. */
    async waitFor(n: number, ms: number) {
      const deadline = Date.now() + ms;
      while (received.length < n) {
        const left = deadline - Date.now();
        if (left <= 0) throw new Error(`only ${received.length} of ${n} deliveries within ${ms} ms`);
        await new Promise<void>((resolve) => {
          const t = setTimeout(resolve, left);
          waiters.push(() => {
            clearTimeout(t);
            resolve();
          });
        });
      }
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** A port nothing listens on (taken from the OS, then released). */
async function closedPort(): Promise<number> {
  const r = await startReceiver();
  await r.close();
  return r.port;
}

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

/** The receivers of these tests listen on 127.0.0.1: a private target, sent to only when the operator allows it. */
const LOOPBACK_RECEIVERS = { WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' };

async function server(deps: Parameters<typeof startTestServer>[0] = {}) {
  const s = await startTestServer({ ...deps, env: { ...ADMIN_ENV, ...LOOPBACK_RECEIVERS, ...deps.env } });
  cleanups.push(() => s.close());
  return s;
}

async function admin(s: TestServer, cookie: string, path: string, init: { method?: string; json?: unknown } = {}) {
  const res = await fetch(`${s.url}${path}`, {
    method: init.method ?? 'GET',
    headers: { cookie, origin: s.config.publicOrigin, ...(init.json !== undefined ? { 'content-type': 'application/json' } : {}) },
    body: init.json !== undefined ? JSON.stringify(init.json) : undefined,
  });
  const text = await res.text();
  return { status: res.status, body: text ? (JSON.parse(text) as Record<string, unknown>) : undefined };
}

const visitor = { name: 'Jordan Lee', email: 'jordan@example.com', subject: 'Reminders', message: 'Could you automate our reminder texts?' };
const contact = (s: TestServer) =>
  fetch(`${s.url}/api/contact`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(visitor) });

/** A clock the test moves. */
function manualClock(start = Date.parse('2026-11-26T08:00:00.000Z')) {
  let now = start;
  return { clock: () => new Date(now), set: (ms: number) => (now = ms), advance: (ms: number) => (now += ms), now: () => now };
}

describe('outgoing webhooks', () => {
  it('sends lead.created to a loopback receiver within 5 s of a contact submission, signed with the endpoint secret', async () => {
    const s = await server();
    const receiver = await startReceiver();
    cleanups.push(receiver.close);
    const cookie = await adminCookie(s);
    const created = await admin(s, cookie, '/api/admin/webhooks', { method: 'POST', json: { url: receiver.url, description: 'n8n', events: ['lead.created', 'post.published'] } });
    expect(created.status).toBe(201);
    const secret = created.body!.secret as string;
    expect(secret).toMatch(/^whsec_/);

    // The secret is shown once: never in the list.
    const list = await admin(s, cookie, '/api/admin/webhooks');
    expect(webhookEndpointListSchema.parse(list.body).endpoints[0]!.url).toBe(receiver.url);
    expect(JSON.stringify(list.body)).not.toContain(secret);

    const sentAt = Date.now();
    expect((await contact(s)).status).toBe(200);
    await receiver.waitFor(1, 5000);
    const [got] = receiver.received;
    expect(got!.at - sentAt).toBeLessThan(5000);
    expect(got!.headers['x-webhook-event']).toBe('lead.created');
    const check = verifyWebhookSignature(got!.headers['x-webhook-signature'] as string, got!.body, secret, Date.now());
    expect(check.ok).toBe(true);
    expect(verifyWebhookSignature(got!.headers['x-webhook-signature'] as string, got!.body, 'another secret', Date.now()).ok).toBe(false);
    const payload = WEBHOOK_PAYLOAD_SCHEMAS['lead.created'].parse(JSON.parse(got!.body));
    expect(got!.headers['x-webhook-id']).toBe(payload.id);
    expect(payload.data).toMatchObject({ name: visitor.name, email: visitor.email, subject: visitor.subject, message: visitor.message });
    expect(got!.body).not.toMatch(/ipHash|userAgent/);

    // A post published from the admin panel: post.published with its public page.
    const post = await admin(s, cookie, '/api/admin/posts', {
      method: 'POST',
      json: { title: 'Webhook test post title', excerpt: 'An excerpt long enough for the rules.', content: '<p>' + 'Body text. '.repeat(40) + '</p>', category: 'Automation', author: 'Owner', metaDescription: 'A meta description that is long enough for the post rules here.' },
    });
    expect(post.status).toBe(201);
    expect((await admin(s, cookie, `/api/admin/posts/${String(post.body!.id)}/publish`, { method: 'POST' })).status).toBe(200);
    await receiver.waitFor(2, 5000);
    const published = WEBHOOK_PAYLOAD_SCHEMAS['post.published'].parse(JSON.parse(receiver.received[1]!.body));
    expect(published.data.url).toBe(`https://example.test/blog/${String(post.body!.slug)}`);
  });

  it('delivers once after a receiver that was down comes back (retries with backoff)', async () => {
    const time = manualClock();
    const s = await server({ deps: { clock: time.clock } });
    const port = await closedPort();
    const cookie = await adminCookie(s);
    const created = await admin(s, cookie, '/api/admin/webhooks', { method: 'POST', json: { url: `http://127.0.0.1:${port}/hook`, events: ['lead.created'] } });
    const id = created.body!.id as string;
    expect((await contact(s)).status).toBe(200);
    const outbox = s.instance.services.webhooksOut;
    await outbox.processOutbox();
    const log = async () => webhookDeliveryListSchema.parse((await admin(s, cookie, `/api/admin/webhooks/${id}/deliveries`)).body).deliveries;
    let [d] = await log();
    expect(d).toMatchObject({ status: 'pending', attempts: 1, responseStatus: null });
    expect(d!.responseExcerpt).toMatch(/ECONNREFUSED/);
    const firstRetry = Date.parse(d!.nextAttemptAt!) - time.now();
    // 30 s ± 20 % jitter.
    expect(firstRetry).toBeGreaterThanOrEqual(24_000);
    expect(firstRetry).toBeLessThanOrEqual(36_000);

    // Not due yet: nothing is sent.
    time.advance(firstRetry - 1000);
    await outbox.processOutbox();
    expect((await log())[0]!.attempts).toBe(1);

    const receiver = await startReceiver(port);
    cleanups.push(receiver.close);
    time.set(Date.parse(d!.nextAttemptAt!));
    await outbox.processOutbox();
    [d] = await log();
    expect(d).toMatchObject({ status: 'delivered' });
    // Later runs (this instance's or another's) never send it again.
    time.advance(24 * 3600_000);
    await outbox.processOutbox();
    await outbox.processOutbox();
    expect(receiver.received).toHaveLength(1);
    [d] = (await outbox.deliveries(id, {})).deliveries;
    expect(d).toMatchObject({ status: 'delivered', attempts: 2, responseStatus: 200, responseExcerpt: 'ok' });
    expect(receiver.received[0]!.headers['x-webhook-id']).toBe(d!.eventId);
    // The log keeps each attempt: the refused connection, then the delivery (a day later: a new session).
    const later = await adminCookie(s);
    const history = await admin(s, later, `/api/admin/webhooks/${id}/deliveries/${d!.id}/attempts`);
    expect(history.status).toBe(200);
    const { attempts } = webhookAttemptListSchema.parse(history.body);
    expect(attempts.map((a) => [a.attempt, a.outcome, a.responseStatus])).toEqual([
      [1, 'retrying', null],
      [2, 'delivered', 200],
    ]);
    expect(attempts[0]!.responseExcerpt).toMatch(/ECONNREFUSED/);
    expect(attempts[1]!.responseExcerpt).toBe('ok');
    expect(Date.parse(attempts[1]!.at)).toBeGreaterThan(Date.parse(attempts[0]!.at));
    // Another endpoint's path, an unknown delivery: not found.
    expect((await admin(s, later, `/api/admin/webhooks/${id}/deliveries/nope/attempts`)).status).toBe(404);
  });

  it("logs each attempt with the id of the request that queued it, also when a later run of the outbox sends it", async () => {
    const time = manualClock();
    const lines: Array<Record<string, unknown>> = [];
    const logger = createLogger({ level: 'info', destination: { write: (line: string) => void lines.push(JSON.parse(line)) } });
    const s = await server({ deps: { clock: time.clock, logger } });
    const port = await closedPort();
    const cookie = await adminCookie(s);
    await admin(s, cookie, '/api/admin/webhooks', { method: 'POST', json: { url: `http://127.0.0.1:${port}/hook`, events: ['lead.created'] } });
    const first = await contact(s);
    const second = await contact(s);
    const ids = [first.headers.get('x-request-id'), second.headers.get('x-request-id')];
    expect(ids[0]).toBeTruthy();
    expect(ids[1]).not.toBe(ids[0]);
    const outbox = s.instance.services.webhooksOut;
    await outbox.processOutbox();
    const failures = () => lines.filter((l) => l.msg === 'outgoing webhook delivery failed');
    // The retry, an hour later, is sent by this test's call (no request at all): each line still names its request.
    time.advance(3600_000);
    await outbox.processOutbox();
    expect(failures()).toHaveLength(4);
    const byDelivery = new Map<unknown, unknown[]>();
    for (const line of failures()) byDelivery.set(line.webhookDeliveryId, [...(byDelivery.get(line.webhookDeliveryId) ?? []), line.requestId]);
    expect([...byDelivery.values()].map((r) => r.join()).sort()).toEqual(ids.map((id) => `${id},${id}`).sort());
  });

  it('does not retry other 4xx answers; honours Retry-After on 429', async () => {
    const time = manualClock();
    const s = await server({ deps: { clock: time.clock } });
    let next = { status: 400, headers: {} as Record<string, string> };
    const receiver = await startReceiver(0, () => next);
    cleanups.push(receiver.close);
    const cookie = await adminCookie(s);
    const id = (await admin(s, cookie, '/api/admin/webhooks', { method: 'POST', json: { url: receiver.url, events: ['lead.created'] } })).body!.id as string;
    await contact(s);
    const outbox = s.instance.services.webhooksOut;
    await outbox.processOutbox();
    const log = async () => webhookDeliveryListSchema.parse((await admin(s, cookie, `/api/admin/webhooks/${id}/deliveries`)).body).deliveries;
    expect((await log())[0]).toMatchObject({ status: 'failed', attempts: 1, responseStatus: 400, nextAttemptAt: null });

    next = { status: 429, headers: { 'retry-after': '600' } };
    time.advance(1000);
    await contact(s);
    await outbox.processOutbox();
    const limited = (await log())[0]!;
    expect(limited).toMatchObject({ status: 'pending', responseStatus: 429 });
    expect(Date.parse(limited.nextAttemptAt!) - time.now()).toBe(600_000);
    next = { status: 200, headers: {} };
    time.advance(600_000);
    await outbox.processOutbox();
    expect((await log())[0]).toMatchObject({ status: 'delivered', attempts: 2 });
  });

  it('disables an endpoint failing for 24 hours and raises an alert (clock controlled by the test)', async () => {
    const time = manualClock();
    const s = await server({ deps: { clock: time.clock } });
    const port = await closedPort();
    let cookie = await adminCookie(s);
    const id = (await admin(s, cookie, '/api/admin/webhooks', { method: 'POST', json: { url: `http://127.0.0.1:${port}/hook`, events: ['lead.created'] } })).body!.id as string;
    const start = time.now();
    await contact(s);
    const outbox = s.instance.services.webhooksOut;
    const repositoryLog = () => outbox.deliveries(id, {});
    let attempts = 0;
    for (let i = 0; i < 200; i++) {
      await outbox.processOutbox();
      const [d] = (await repositoryLog()).deliveries as WebhookDelivery[];
      attempts = d!.attempts;
      if (d!.status !== 'pending') break;
      time.set(Date.parse(d!.nextAttemptAt!));
    }
    const [last] = (await repositoryLog()).deliveries;
    expect(last!.status).toBe('failed');
    expect(Date.parse(last!.lastAttemptAt!) - start).toBe(24 * 3600_000);
    // Exponential backoff capped at an hour: about 30 tries in a day, not thousands.
    expect(attempts).toBeGreaterThan(15);
    expect(attempts).toBeLessThan(40);

    await s.instance.services.admin.alerts.idle();
    cookie = await adminCookie(s);
    const endpoints = webhookEndpointListSchema.parse((await admin(s, cookie, '/api/admin/webhooks')).body).endpoints;
    expect(endpoints[0]).toMatchObject({ enabled: false });
    expect(endpoints[0]!.disabledReason).toMatch(/24 hours/);
    const alerts = (await admin(s, cookie, '/api/admin/alerts')).body as { alerts: Array<{ type: string; title: string }> };
    expect(alerts.alerts.filter((a) => a.type === 'webhookDelivery')).toHaveLength(1);

    // Disabled: new events are not queued for it.
    await contact(s);
    expect((await repositoryLog()).deliveries).toHaveLength(1);
    // Enabled again by the owner: a fresh start.
    const reenabled = await admin(s, cookie, `/api/admin/webhooks/${id}`, { method: 'PATCH', json: { enabled: true } });
    expect(reenabled.body).toMatchObject({ enabled: true, disabledReason: null, failingSince: null });
  });

  it('sends a test event and redelivers one from the log with the same event id', async () => {
    const s = await server();
    const receiver = await startReceiver();
    cleanups.push(receiver.close);
    const cookie = await adminCookie(s);
    const created = await admin(s, cookie, '/api/admin/webhooks', { method: 'POST', json: { url: receiver.url, events: ['post.deleted'] } });
    const id = created.body!.id as string;
    const test = await admin(s, cookie, `/api/admin/webhooks/${id}/test`, { method: 'POST' });
    expect(test.status).toBe(200);
    expect(test.body).toMatchObject({ status: 'delivered', event: 'webhook.test', attempts: 1, responseStatus: 200 });
    const again = await admin(s, cookie, `/api/admin/webhooks/${id}/deliveries/${String(test.body!.id)}/redeliver`, { method: 'POST' });
    expect(again.status).toBe(201);
    expect(again.body).toMatchObject({ status: 'delivered', eventId: test.body!.eventId, redeliveryOf: test.body!.id });
    expect(receiver.received.map((r) => r.headers['x-webhook-id'])).toEqual([test.body!.eventId, test.body!.eventId]);
    expect(receiver.received[0]!.body).toBe(receiver.received[1]!.body);
    const log = webhookDeliveryListSchema.parse((await admin(s, cookie, `/api/admin/webhooks/${id}/deliveries`)).body).deliveries;
    expect(log).toHaveLength(2);

    // Regenerating shows the new secret once; the next delivery is signed with it.
    const regenerated = await admin(s, cookie, `/api/admin/webhooks/${id}`, { method: 'PATCH', json: { regenerateSecret: true } });
    const secret = regenerated.body!.secret as string;
    expect(secret).not.toBe(created.body!.secret);
    await admin(s, cookie, `/api/admin/webhooks/${id}/test`, { method: 'POST' });
    const last = receiver.received.at(-1)!;
    expect(verifyWebhookSignature(last.headers['x-webhook-signature'] as string, last.body, secret, Date.now()).ok).toBe(true);

    expect((await admin(s, cookie, `/api/admin/webhooks/${id}`, { method: 'DELETE' })).status).toBe(204);
    expect((await admin(s, cookie, `/api/admin/webhooks/${id}/deliveries`)).status).toBe(404);
  });

  it('accepts only http(s) addresses without credentials, and needs an event', async () => {
    const s = await server();
    const cookie = await adminCookie(s);
    for (const json of [
      { url: 'ftp://127.0.0.1/x', events: ['lead.created'] },
      { url: 'file:///etc/passwd', events: ['lead.created'] },
      { url: 'http://user:pw@10.0.0.5/hook', events: ['lead.created'] },
      { url: 'http://10.0.0.5/hook', events: [] },
      { url: 'http://10.0.0.5/hook', events: ['user.deleted'] },
    ]) {
      const res = await admin(s, cookie, '/api/admin/webhooks', { method: 'POST', json });
      expect(res.status, JSON.stringify(json)).toBe(400);
    }
    // The owner's private network, with WEBHOOK_ALLOW_PRIVATE_TARGETS (n8n beside the site; webhook-targets.test.ts
    // has it off).
    expect((await admin(s, cookie, '/api/admin/webhooks', { method: 'POST', json: { url: 'http://192.168.1.20:5678/webhook/x', events: ['lead.created'] } })).status).toBe(201);
    const anonymous = await fetch(`${s.url}/api/admin/webhooks`);
    expect(anonymous.status).toBe(401);
  });

  it('keeps at most 20 endpoints, also when creates race', async () => {
    const s = await server();
    const cookie = await adminCookie(s);
    const create = (i: number) => admin(s, cookie, '/api/admin/webhooks', { method: 'POST', json: { url: `http://127.0.0.1:9/hook-${i}`, events: ['lead.created'] } });
    const count = async () => webhookEndpointListSchema.parse((await admin(s, cookie, '/api/admin/webhooks')).body).endpoints.length;
    const raced = await Promise.all(Array.from({ length: 26 }, (_, i) => create(i)));
    const made = raced.filter((r) => r.status === 201).length;
    expect(made).toBeLessThanOrEqual(WEBHOOK_MAX_ENDPOINTS);
    expect(await count()).toBe(made);
    for (const refused of raced.filter((r) => r.status !== 201)) {
      expect(refused.status).toBe(409);
      expect(refused.body).toMatchObject({ error: { code: 'webhook_limit', message: WEBHOOK_MESSAGES.tooMany } });
    }
    for (let i = made; i < WEBHOOK_MAX_ENDPOINTS; i++) expect((await create(100 + i)).status).toBe(201);
    expect(await count()).toBe(WEBHOOK_MAX_ENDPOINTS);
    expect((await create(200)).status).toBe(409);
    expect(await count()).toBe(WEBHOOK_MAX_ENDPOINTS);
  });
});
