import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { WEBHOOK_MESSAGES, webhookDeliveryListSchema, webhookDeliverySchema } from '@site/contracts/webhooks-out';
import { ADMIN_ENV, adminCookie } from '../../test-support/admin-session';
import { startTestServer, type TestServer } from '../../test-support/test-server';
import type { ResolvedAddress } from '../webhook-targets';

/*
 * Issue 35's security review: an endpoint could target cloud metadata (169.254.169.254) and internal services, and
 * 'Send test event' showed their answer in the delivery log. Link-local and metadata targets are refused always, when
 * saved (what was typed) and when sent (every address the name resolves to then); private and loopback targets only
 * go out with WEBHOOK_ALLOW_PRIVATE_TARGETS. Names are resolved by the test's own resolver: no real DNS is asked, and
 * no traffic leaves loopback.
 */

/** What the test's resolver answers for each name (set per test); an unknown name is not found. */
const zone = new Map<string, ResolvedAddress[] | (() => ResolvedAddress[])>();
const lookups: string[] = [];
const resolver = async (hostname: string): Promise<ResolvedAddress[]> => {
  lookups.push(hostname);
  const answer = zone.get(hostname);
  if (!answer) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
  return typeof answer === 'function' ? answer() : answer;
};
const v4 = (address: string): ResolvedAddress => ({ address, family: 4 });
const v6 = (address: string): ResolvedAddress => ({ address, family: 6 });

/** An internal service on loopback whose answer must not reach the delivery log unless private targets are allowed. */
const INTERNAL_ANSWER = 'internal-service-secret-answer';
let receiver: http.Server;
let receiverPort: number;
const received: string[] = [];

async function server(env: Record<string, string> = {}): Promise<TestServer> {
  return startTestServer({ env: { ...ADMIN_ENV, ...env }, deps: { webhookResolver: resolver } });
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

const create = (s: TestServer, cookie: string, url: string) => admin(s, cookie, '/api/admin/webhooks', { method: 'POST', json: { url, events: ['lead.created'] } });
const sendTest = async (s: TestServer, cookie: string, id: string) => {
  const res = await admin(s, cookie, `/api/admin/webhooks/${id}/test`, { method: 'POST' });
  expect(res.status).toBe(200);
  return webhookDeliverySchema.parse(res.body);
};
const urlProblem = (res: { body?: Record<string, unknown> }) => (res.body as { error?: { details?: Array<{ path: string; message: string }> } }).error?.details;

beforeAll(async () => {
  receiver = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      received.push(String(req.headers.host));
      res.writeHead(200, { 'content-type': 'text/plain' }).end(INTERNAL_ANSWER);
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  receiverPort = (receiver.address() as AddressInfo).port;
});
afterAll(async () => {
  await new Promise<void>((resolve) => receiver.close(() => resolve()));
});
beforeEach(() => {
  zone.clear();
  lookups.length = 0;
  received.length = 0;
});

describe('link-local and cloud metadata targets are refused always', () => {
  let s: TestServer;
  let cookie: string;
  beforeAll(async () => {
    // Even with private targets allowed: the switch never opens metadata.
    s = await server({ WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' });
    cookie = await adminCookie(s);
  });
  afterAll(() => s.close());

  it('refuses a literal metadata address or name when the endpoint is saved (400, the url named)', async () => {
    for (const url of [
      'http://169.254.169.254/latest/meta-data/iam/security-credentials/',
      'http://2852039166/latest/meta-data/',
      'http://[fd00:ec2::254]/latest/meta-data/',
      'http://[::ffff:169.254.169.254]/',
      'http://[fe80::1]:8080/hook',
      'http://metadata.google.internal/computeMetadata/v1/',
      'http://instance-data/latest/meta-data/',
    ]) {
      const res = await create(s, cookie, url);
      expect(res.status, url).toBe(400);
      expect(urlProblem(res), url).toEqual([{ path: 'url', message: WEBHOOK_MESSAGES.urlMetadata }]);
    }
    // Nor can an endpoint be changed to one.
    zone.set('hooks.example.test', [v4('127.0.0.1')]);
    const saved = await create(s, cookie, `http://hooks.example.test:${receiverPort}/hook`);
    expect(saved.status).toBe(201);
    const patched = await admin(s, cookie, `/api/admin/webhooks/${String(saved.body!.id)}`, { method: 'PATCH', json: { url: 'http://169.254.169.254/' } });
    expect(patched.status).toBe(400);
    expect(urlProblem(patched)).toEqual([{ path: 'url', message: WEBHOOK_MESSAGES.urlMetadata }]);
    await admin(s, cookie, `/api/admin/webhooks/${String(saved.body!.id)}`, { method: 'DELETE' });
  });

  it('refuses a name that resolves to 169.254.169.254 when it is sent, though saving it was allowed: failed for good, the reason in the log', async () => {
    zone.set('hooks.example.test', [v4('169.254.169.254')]);
    const saved = await create(s, cookie, 'http://hooks.example.test/latest/meta-data/');
    expect(saved.status).toBe(201);
    const id = String(saved.body!.id);
    const delivery = await sendTest(s, cookie, id);
    expect(lookups).toEqual(['hooks.example.test']);
    expect(delivery).toMatchObject({ status: 'failed', attempts: 1, responseStatus: null, nextAttemptAt: null });
    expect(delivery.responseExcerpt).toBe('Not sent: hooks.example.test is or resolves to a link-local or cloud metadata address, where webhooks are never sent.');
    // Not retried: later runs of the outbox leave it as it is.
    await s.instance.services.webhooksOut.processOutbox();
    const [logged] = webhookDeliveryListSchema.parse((await admin(s, cookie, `/api/admin/webhooks/${id}/deliveries`)).body).deliveries;
    expect(logged).toMatchObject({ id: delivery.id, status: 'failed', attempts: 1 });
    await admin(s, cookie, `/api/admin/webhooks/${id}`, { method: 'DELETE' });
  });

  it('checks every address of the name, in every spelling, at each send (DNS changed after saving)', async () => {
    let answer: ResolvedAddress[] = [v4('127.0.0.1')];
    zone.set('n8n.example.test', () => answer);
    const saved = await create(s, cookie, `http://n8n.example.test:${receiverPort}/hook`);
    const id = String(saved.body!.id);
    // First the name points at the receiver (a private address: allowed here), and the request goes to that address.
    expect(await sendTest(s, cookie, id)).toMatchObject({ status: 'delivered', responseStatus: 200 });
    expect(received).toEqual([`n8n.example.test:${receiverPort}`]);
    for (const changed of [[v4('127.0.0.1'), v4('169.254.169.254')], [v6('::ffff:169.254.169.254')], [v6('fe80::1')], [v6('fd00:ec2::254')], [v4('169.254.0.1')]]) {
      answer = changed;
      const delivery = await sendTest(s, cookie, id);
      expect(delivery.status, JSON.stringify(changed)).toBe('failed');
      expect(delivery.responseExcerpt).toMatch(/link-local or cloud metadata/);
    }
    // One lookup per attempt: the socket connects to the checked address, it does not ask DNS again.
    expect(lookups).toHaveLength(6);
    expect(received).toHaveLength(1);
    await admin(s, cookie, `/api/admin/webhooks/${id}`, { method: 'DELETE' });
  });
});

describe('private and loopback targets need WEBHOOK_ALLOW_PRIVATE_TARGETS', () => {
  let closed: TestServer;
  let open: TestServer;
  beforeAll(async () => {
    closed = await server();
    open = await server({ WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' });
  });
  afterAll(async () => {
    await closed.close();
    await open.close();
  });

  it('off by default: a private address is refused when saved, a name resolving to one when sent, and the service answer never reaches the log', async () => {
    expect(closed.config.webhookAllowPrivateTargets).toBe(false);
    const cookie = await adminCookie(closed);
    for (const url of [`http://127.0.0.1:${receiverPort}/hook`, 'http://10.0.0.5/hook', 'http://192.168.1.20:5678/webhook/x', 'http://100.64.0.1/x', 'http://0.0.0.0:5678/x', 'http://[::1]:5678/x', 'http://[fd12::1]/x', 'http://localhost:5678/webhook/x']) {
      const res = await create(closed, cookie, url);
      expect(res.status, url).toBe(400);
      expect(urlProblem(res), url).toEqual([{ path: 'url', message: WEBHOOK_MESSAGES.urlPrivate }]);
    }
    zone.set('n8n.internal.test', [v4('127.0.0.1')]);
    const saved = await create(closed, cookie, `http://n8n.internal.test:${receiverPort}/webhook/site`);
    expect(saved.status).toBe(201);
    const delivery = await sendTest(closed, cookie, String(saved.body!.id));
    expect(delivery).toMatchObject({ status: 'failed', attempts: 1, responseStatus: null, nextAttemptAt: null });
    expect(delivery.responseExcerpt).toBe(
      'Not sent: n8n.internal.test is or resolves to a private or loopback address. Set WEBHOOK_ALLOW_PRIVATE_TARGETS=true on the server to send webhooks to your own network.',
    );
    expect(received).toEqual([]);
    const log = JSON.stringify((await admin(closed, cookie, `/api/admin/webhooks/${String(saved.body!.id)}/deliveries`)).body);
    expect(log).not.toContain(INTERNAL_ANSWER);
  });

  it('on: the same name and a literal loopback address are saved and delivered, with status and answer in the log', async () => {
    expect(open.config.webhookAllowPrivateTargets).toBe(true);
    const cookie = await adminCookie(open);
    zone.set('n8n.internal.test', [v4('127.0.0.1')]);
    for (const url of [`http://n8n.internal.test:${receiverPort}/webhook/site`, `http://127.0.0.1:${receiverPort}/hook`]) {
      const saved = await create(open, cookie, url);
      expect(saved.status, url).toBe(201);
      const delivery = await sendTest(open, cookie, String(saved.body!.id));
      expect(delivery, url).toMatchObject({ status: 'delivered', responseStatus: 200, responseExcerpt: INTERNAL_ANSWER });
    }
    expect(received).toEqual([`n8n.internal.test:${receiverPort}`, `127.0.0.1:${receiverPort}`]);
    expect((await create(open, cookie, 'http://192.168.1.20:5678/webhook/x')).status).toBe(201);
  });
});
