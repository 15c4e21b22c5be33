import { createHmac } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { LOGIN_MAX_FAILURES } from '@site/contracts/admin';
import { CONTACT_RATE_LIMIT } from '../contact/contact-routes';
import {
  bundleMissing,
  forgetRedisKeys,
  postgresUrlWithSchema,
  reachableRedis,
  redisTestPrefix,
  startChildServer,
  type ChildServer,
} from '../test-support/child-server';
import { describeNeedingBuild } from '../test-support/built-site';
import { uniqueSchema } from '../test-support/databases';
import { scrapeMetrics } from '../test-support/scrape';
import { call, contactMessage, cookieOf, sendWebhook, waitFor, webhookPost } from '../test-support/site-client';
import { startMailbox, type LoopbackMailbox } from '../test-support/mailbox';

/*
 * Two server processes (node api/dist/server.js) on one PostgreSQL database and one Redis: what a deployment behind a
 * load balancer is. Needs TEST_DATABASE_URL (PostgreSQL) and a Redis at TEST_REDIS_URL (default
 * redis://127.0.0.1:6379), and the built bundle. Without PostgreSQL or Redis the suite is skipped and says why; without
 * the bundle it is skipped too when run by hand, and fails under `npm test` (which builds first).
 */
const databaseUrl = process.env.TEST_DATABASE_URL;
const redisUrl = await reachableRedis();
const unavailable = !databaseUrl
  ? 'TEST_DATABASE_URL is not set (a PostgreSQL database)'
  : !redisUrl
    ? `no Redis answers at ${process.env.TEST_REDIS_URL || 'redis://127.0.0.1:6379'} (set TEST_REDIS_URL)`
    : undefined;

const PASSWORD = 'scale-out admin password';
const SECRET = 'scale-out webhook secret';
const MULTIPLIER = 2;
const METRICS_TOKEN = 'scale-out-metrics-token-0123456789';

/**
 * Waits until no run of the job `kind` is in progress on either instance (their /metrics). Once what a job works on is
 * all done in the database (every mail sent, every delivery delivered) and neither instance is running it, no further
 * run can send anything: what was received is final. This replaces a fixed sleep "for a duplicate to show up".
 */
async function jobIdleOnBoth(instances: readonly ChildServer[], kind: string) {
  await waitFor(
    async () => {
      for (const instance of instances) if ((await scrapeMetrics(instance.url, METRICS_TOKEN)).value('site_job_running', { kind }) !== 0) return false;
      return true;
    },
    10_000,
    `no ${kind} run in progress on either instance`,
  );
}

describeNeedingBuild('two instances on one PostgreSQL and one Redis', { missing: bundleMissing(), unavailable }, () => {
  const schema = uniqueSchema();
  let admin: pg.Client;
  // The run's own Redis keys (REDIS_KEY_PREFIX), removed at the end; the Redis database is not the test's to empty.
  const redisPrefix = redisTestPrefix(schema);
  let smtp: LoopbackMailbox | undefined;
  const mails: { messageId: string; subject: string }[] = [];
  let siteRoot: string;
  let a: ChildServer;
  let b: ChildServer;
  const both = () => [a, b] as const;

  beforeAll(async () => {
    admin = new pg.Client({ connectionString: databaseUrl });
    await admin.connect();
    await admin.query(`CREATE SCHEMA "${schema}"`);

    // The owner's mailbox: a local SMTP server that takes a moment per mail, so both instances' outboxes overlap.
    smtp = await startMailbox(async (raw) => {
      // Contact mails only (the monitor's alert mails, e.g. "remote not deployed" here, are not what is counted).
      const id = /Message id: (\S+)/.exec(raw)?.[1];
      if (id) mails.push({ messageId: id, subject: /^Subject: (.*)$/m.exec(raw)?.[1] ?? '' });
      await new Promise((resolve) => setTimeout(resolve, 40));
    });
    siteRoot = await mkdtemp(path.join(tmpdir(), 'scale-out-site-'));

    const env = {
      DATABASE_URL: postgresUrlWithSchema(databaseUrl!, schema),
      REDIS_URL: redisUrl!,
      REDIS_KEY_PREFIX: redisPrefix,
      SMTP_URL: smtp.url,
      CONTACT_EMAIL_TO: 'owner@site.test',
      ADMIN_PASSWORD: PASSWORD,
      WEBHOOK_SECRET: SECRET,
      // The outgoing webhooks' receiver listens on 127.0.0.1: a private target, sent to only when allowed.
      WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
      PUBLIC_ORIGIN: 'https://site.test',
      RATE_LIMIT_MULTIPLIER: String(MULTIPLIER),
      // Tests name their client with X-Forwarded-For, so one address's lockout does not spill into another test.
      TRUST_PROXY: 'true',
      SITE_ROOT: siteRoot,
      DATA_DIR: siteRoot,
      METRICS_TOKEN,
      // Info lines: the scheduler's `post.published` is counted below.
      LOG_LEVEL: 'info',
    };
    // The first one migrates the schema; the second starts on it as every later instance would.
    a = await startChildServer(env);
    b = await startChildServer(env);
  }, 60_000);

  afterAll(async () => {
    await Promise.all([a?.stop(), b?.stop()]);
    await smtp?.close();
    if (redisUrl) await forgetRedisKeys(redisUrl, redisPrefix);
    if (admin) {
      await admin.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
      await admin.end();
    }
    if (siteRoot) await rm(siteRoot, { recursive: true, force: true });
  }, 30_000);

  it('counts a limit of N once for both: N contact messages alternating between them, then 429 on each', async () => {
    const limit = CONTACT_RATE_LIMIT.max * MULTIPLIER;
    const statuses: number[] = [];
    for (let i = 0; i < limit; i++) {
      const res = await call(both()[i % 2]!.url, '/api/contact', { method: 'POST', body: contactMessage(`limit-${i}`) });
      statuses.push(res.status);
    }
    expect(statuses).toEqual(Array(limit).fill(200));
    for (const instance of both()) {
      const refused = await call(instance.url, '/api/contact', { method: 'POST', body: contactMessage('one too many') });
      expect(refused.status).toBe(429);
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(500);
      expect(refused.json.error.code).toBe('rate_limited');
    }
  });

  it('sends each owner mail once while both instances run their outbox', async () => {
    // The messages of the previous test were spread over both instances, each of which kicked its own outbox.
    const limit = CONTACT_RATE_LIMIT.max * MULTIPLIER;
    await waitFor(() => mails.length >= limit, 20_000, `${limit} owner mails`);
    // Every mail marked sent in the database, and neither outbox mid-run: a mail taken twice would have arrived by now.
    const login = await call(a.url, '/api/admin/login', { method: 'POST', body: { password: PASSWORD }, headers: { 'x-forwarded-for': '203.0.113.20' } });
    const cookie = cookieOf(login.headers);
    await waitFor(
      async () => (await call(a.url, '/api/admin/leads?limit=100', { cookie })).json.leads.every((l: { mail: { state: string } }) => l.mail.state === 'sent'),
      20_000,
      'every lead mail marked sent',
    );
    await jobIdleOnBoth(both(), 'contact-mail');
    expect(mails).toHaveLength(limit);
    expect(new Set(mails.map((m) => m.messageId)).size).toBe(limit);
  });

  it('serves a post created through one instance from the other', async () => {
    const created = await sendWebhook(a.url, SECRET, webhookPost('scale-out'), 'scale-out-delivery');
    expect(created.status).toBe(201);
    const served = await call(b.url, `/api/posts/${created.json.slug}`);
    expect(served.status).toBe(200);
    expect(served.json.title).toBe('Automation note scale-out');
    // The same delivery retried against the other instance is the first answer, not a second post.
    const retried = await sendWebhook(b.url, SECRET, webhookPost('scale-out'), 'scale-out-delivery');
    expect(retried.status).toBe(201);
    expect(retried.headers.get('idempotent-replayed')).toBe('true');
    expect(retried.json.id).toBe(created.json.id);
    const listed = await call(a.url, `/api/posts?q=${encodeURIComponent('Automation note scale-out')}`);
    expect(listed.json.total).toBe(1);
  });

  it('keeps a session made on one instance live on the other, and ends it on both at logout', async () => {
    const login = await call(a.url, '/api/admin/login', { method: 'POST', body: { password: PASSWORD } });
    expect(login.status).toBe(200);
    const cookie = cookieOf(login.headers);
    expect((await call(b.url, '/api/admin/session', { cookie })).json).toMatchObject({ authenticated: true });
    expect((await call(b.url, '/api/admin/leads', { cookie })).status).toBe(200);
    // Every lead's owner mail went out once (the admin view agrees with the mailbox).
    const leads = await call(a.url, '/api/admin/leads?limit=100', { cookie });
    expect(leads.json.leads.map((l: { mail: { state: string } }) => l.mail.state)).toEqual(Array(CONTACT_RATE_LIMIT.max * MULTIPLIER).fill('sent'));

    expect((await call(b.url, '/api/admin/logout', { method: 'POST', cookie })).status).toBeLessThan(300);
    for (const instance of both()) {
      expect((await call(instance.url, '/api/admin/session', { cookie })).json).toMatchObject({ authenticated: false });
      expect((await call(instance.url, '/api/admin/leads', { cookie })).status).toBe(401);
    }
  });

  it('locks an address out of the admin login after the failures counted on both instances', async () => {
    const lockoutAt = Math.max(LOGIN_MAX_FAILURES, Math.floor(LOGIN_MAX_FAILURES * MULTIPLIER));
    for (let i = 0; i < lockoutAt; i++) {
      const res = await call(both()[i % 2]!.url, '/api/admin/login', { method: 'POST', body: { password: `wrong ${i}` } });
      expect(res.status).toBe(401);
    }
    for (const instance of both()) {
      const locked = await call(instance.url, '/api/admin/login', { method: 'POST', body: { password: PASSWORD } });
      expect(locked.status).toBe(429);
    }
  });

  it('checks at most the lockout of a concurrent burst of wrong logins split over both instances, and refuses the rest', async () => {
    const lockoutAt = Math.max(LOGIN_MAX_FAILURES, Math.floor(LOGIN_MAX_FAILURES * MULTIPLIER));
    const headers = { 'x-forwarded-for': '203.0.113.30' };
    const burst = Array.from({ length: 40 }, (_, i) =>
      call(both()[i % 2]!.url, '/api/admin/login', { method: 'POST', body: { password: `burst ${i}` }, headers }),
    );
    const statuses = (await Promise.all(burst)).map((r) => r.status);
    const tally = (status: number) => statuses.filter((s) => s === status).length;
    expect({ checked: tally(401), refused: tally(429) }).toEqual({ checked: lockoutAt, refused: 40 - lockoutAt });
    for (const instance of both()) {
      const locked = await call(instance.url, '/api/admin/login', { method: 'POST', body: { password: PASSWORD }, headers });
      expect(locked.status).toBe(429);
    }
  });

  it('publishes each scheduled post once while both instances run their scheduler (one revision, one post.published line)', async () => {
    const login = await call(a.url, '/api/admin/login', { method: 'POST', body: { password: PASSWORD }, headers: { 'x-forwarded-for': '203.0.113.40' } });
    const cookie = cookieOf(login.headers);
    const at = new Date(Date.now() + 3_000).toISOString();
    const posts: Array<{ id: string; slug: string }> = [];
    for (let i = 0; i < 6; i++) {
      const instance = both()[i % 2]!;
      const created = await call(instance.url, '/api/admin/posts', { method: 'POST', body: { ...webhookPost(`scheduled-${i}`), status: undefined }, cookie });
      expect(created.status).toBe(201);
      // Scheduled through the other instance than the one that wrote it: each instance has some of the timers.
      const scheduled = await call(both()[(i + 1) % 2]!.url, `/api/admin/posts/${created.json.id}/schedule`, { method: 'POST', body: { publishAt: at }, cookie });
      expect(scheduled.json.status).toBe('scheduled');
      posts.push({ id: created.json.id, slug: created.json.slug });
    }
    expect((await call(b.url, `/api/posts/${posts[0]!.slug}`)).status).toBe(404);
    // Within 30 s of the time (the poll is 5 s), on both instances.
    await waitFor(
      async () => {
        for (const post of posts) for (const instance of both()) if ((await call(instance.url, `/api/posts/${post.slug}`)).status !== 200) return false;
        return true;
      },
      30_000,
      'every scheduled post public on both instances',
    );
    // No wait for "nothing more happens": once a post is public its status is published, so the other instance's write
    // (a compare-and-set on the scheduled status) can no longer match. The race itself is forced, many times over, in
    // posts/__tests__/post-schedule.test.ts; here each post's one line and one revision are read once all are public.
    const lines = (a.output() + b.output())
      .split('\n')
      .filter((line) => line.includes('"msg":"post.published"'))
      .map((line) => JSON.parse(line) as { postId: string; by: string });
    for (const post of posts) {
      expect(lines.filter((l) => l.postId === post.id).map((l) => l.by), post.slug).toEqual(['schedule']);
      const history = await call(a.url, `/api/admin/posts/${post.id}/revisions`, { cookie });
      expect(history.json.revisions.filter((r: { action: string }) => r.action === 'publish'), post.slug).toHaveLength(1);
      expect((await call(b.url, `/api/posts/${post.slug}`)).json.publishedAt).toBe(at);
    }
  }, 60_000);

  it('delivers each outgoing webhook event once per endpoint while both instances run the outbox', async () => {
    // The owner's n8n: two endpoints on one loopback receiver that takes a moment per request, so both instances'
    // outbox runs overlap; it records which event id reached which endpoint, and checks each signature.
    const received: Array<{ endpoint: string; id: string; event: string; valid: boolean }> = [];
    const secrets = new Map<string, string>();
    const receiver = http.createServer((req, res) => {
      let body = '';
      req.setEncoding('utf8');
      req.on('data', (chunk: string) => (body += chunk));
      req.on('end', () => {
        const endpoint = req.url ?? '';
        const [t, v1] = String(req.headers['x-webhook-signature']).split(',').map((part) => part.split('=')[1]);
        const expected = createHmac('sha256', secrets.get(endpoint) ?? '').update(`${t}.${body}`).digest('hex');
        received.push({ endpoint, id: String(req.headers['x-webhook-id']), event: String(req.headers['x-webhook-event']), valid: v1 === expected });
        setTimeout(() => res.writeHead(204).end(), 20);
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    try {
      const base = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
      const login = await call(b.url, '/api/admin/login', { method: 'POST', body: { password: PASSWORD }, headers: { 'x-forwarded-for': '203.0.113.50' } });
      const cookie = cookieOf(login.headers);
      for (const [i, path] of ['/n8n-one', '/n8n-two'].entries()) {
        const created = await call(both()[i]!.url, '/api/admin/webhooks', {
          method: 'POST',
          body: { url: `${base}${path}`, events: ['lead.created', 'post.published'], description: `scale-out ${path}` },
          cookie,
        });
        expect(created.status).toBe(201);
        secrets.set(path, created.json.secret);
      }
      // Ten contact messages and four published posts, alternating between the instances (each visitor its own address).
      const events: string[] = [];
      for (let i = 0; i < 10; i++) {
        const res = await call(both()[i % 2]!.url, '/api/contact', {
          method: 'POST',
          body: contactMessage(`outgoing-${i}`),
          headers: { 'x-forwarded-for': `203.0.113.${100 + i}` },
        });
        expect(res.status).toBe(200);
        events.push('lead.created');
      }
      for (let i = 0; i < 4; i++) {
        const res = await sendWebhook(both()[i % 2]!.url, SECRET, webhookPost(`outgoing-${i}`));
        expect(res.status).toBe(201);
        events.push('post.published');
      }
      await waitFor(() => received.length >= events.length * 2, 20_000, `${events.length * 2} deliveries`);
      // Every delivery marked delivered in the database, and neither outbox mid-run: a delivery sent by both instances
      // would have arrived by now.
      const endpoints = (await call(a.url, '/api/admin/webhooks', { cookie })).json.endpoints as Array<{ id: string }>;
      await waitFor(
        async () => {
          for (const endpoint of endpoints) {
            const log = await call(a.url, `/api/admin/webhooks/${endpoint.id}/deliveries?limit=100`, { cookie });
            if (log.json.deliveries.length !== events.length || log.json.deliveries.some((d: { status: string }) => d.status !== 'delivered')) return false;
          }
          return true;
        },
        20_000,
        'every delivery marked delivered',
      );
      await jobIdleOnBoth(both(), 'webhook-deliveries');
      expect(received).toHaveLength(events.length * 2);
      expect(received.every((r) => r.valid)).toBe(true);
      for (const endpoint of ['/n8n-one', '/n8n-two']) {
        const ids = received.filter((r) => r.endpoint === endpoint).map((r) => r.id);
        expect(new Set(ids).size, endpoint).toBe(events.length);
      }
      expect(received.filter((r) => r.event === 'post.published')).toHaveLength(8);
    } finally {
      await new Promise<void>((resolve) => receiver.close(() => resolve()));
    }
  }, 60_000);

  it('answers liveness and readiness on both', async () => {
    for (const instance of both()) {
      expect((await call(instance.url, '/api/health/live')).status).toBe(200);
      expect((await call(instance.url, '/api/health/ready')).json).toEqual({ status: 'ready' });
    }
  });
});
