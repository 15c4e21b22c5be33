import net, { type AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../lib/logger';
import { ADMIN_ENV } from '../test-support/admin-session';
import { describeNeedingBuild, REPO_ROOT, serverEntriesMissing } from '../test-support/built-site';
import { scrapeMetrics } from '../test-support/scrape';
import { contactMessage, waitFor } from '../test-support/site-client';
import { SERVE_BUILDS_IN_PLACE, startTestServer, type TestServer } from '../test-support/test-server';
import { otlpReceiver } from '../test-support/otlp-receiver';

// Metrics (GET /metrics with METRICS_TOKEN), request ids on answers and log lines, and OpenTelemetry spans exported
// to a receiver on loopback (docs/operating.md, "Logs, request ids and traces").

const TOKEN = 'metrics-token-for-the-observability-test';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** A loopback port nothing listens on: an SMTP server that refuses every mail. */
async function refusedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

const origin = (server: TestServer) => ({ 'content-type': 'application/json', origin: server.config.publicOrigin });

describe('GET /metrics', () => {
  let server: TestServer;
  let plain: TestServer;
  const lines: Array<Record<string, unknown>> = [];

  beforeAll(async () => {
    const logger = createLogger({ level: 'info', destination: { write: (line: string) => void lines.push(JSON.parse(line)) } });
    server = await startTestServer({
      env: { ...ADMIN_ENV, METRICS_TOKEN: TOKEN, SMTP_URL: `smtp://127.0.0.1:${await refusedPort()}` },
      deps: { logger },
      routes: [
        (router) =>
          router.get('/api/test-observability/fails', () => {
            // A line from the app's own logger (as a service writes), not the request's child logger.
            logger.info({ where: 'service' }, 'a service line during the request');
            throw new Error('failing on purpose');
          }),
      ],
    });
    plain = await startTestServer();
  });
  afterAll(async () => {
    await server?.close();
    await plain?.close();
  });

  it('is not there without METRICS_TOKEN (404 as any unknown path) and nothing is counted', async () => {
    const answer = await fetch(`${plain.url}/metrics`, { headers: { authorization: `Bearer ${TOKEN}`, accept: 'text/plain' } });
    expect(answer.status).toBe(404);
    expect(await answer.text()).not.toContain('site_http_requests_total');
    expect(plain.instance.metrics).toBeUndefined();
  });

  it('refuses a scraper without the token or with a wrong one (401)', async () => {
    for (const authorization of [undefined, 'Bearer ', `Bearer ${TOKEN.slice(0, -1)}x`, `Bearer ${TOKEN}-longer`, `Basic ${Buffer.from(`x:${TOKEN}`).toString('base64')}`, TOKEN]) {
      const answer = await fetch(`${server.url}/metrics`, { headers: authorization ? { authorization } : {} });
      expect(answer.status, String(authorization)).toBe(401);
      expect(answer.headers.get('www-authenticate')).toContain('Bearer');
      expect(await answer.text()).not.toContain('site_');
    }
  });

  it('answers the Prometheus text format that a parser reads, with every metric family the alerts use', async () => {
    const scrape = await scrapeMetrics(server.url, TOKEN);
    expect(scrape.contentType).toMatch(/^text\/plain; version=0\.0\.4/);
    expect(scrape.families.length).toBeGreaterThan(20);
    for (const name of [
      'site_http_requests_total',
      'site_http_request_duration_seconds',
      'site_outbox_depth',
      'site_outbox_oldest_age_seconds',
      'site_db_pool_waiting',
      'site_admin_login_failures_total',
      'site_webhook_deliveries_total',
      'nodejs_eventloop_lag_seconds',
      'process_resident_memory_bytes',
    ]) {
      expect(scrape.has(name), name).toBe(true);
    }
    expect(scrape.family('site_http_request_duration_seconds')?.type).toBe('HISTOGRAM');
  });

  it('counts requests by route pattern and status, never by raw path', async () => {
    const before = await scrapeMetrics(server.url, TOKEN);
    const live = { route: '/api/health/live', status: '200', method: 'GET' };
    const posts = { route: '/api/posts/:slug', status: '404' };
    await Promise.all(Array.from({ length: 7 }, () => fetch(`${server.url}/api/health/live`)));
    for (const slug of ['no-such-post-1', 'no-such-post-2', 'no-such-post-3']) await fetch(`${server.url}/api/posts/${slug}`);
    await fetch(`${server.url}/api/nothing-here-${Date.now()}`);
    const after = await scrapeMetrics(server.url, TOKEN);
    expect(after.value('site_http_requests_total', live) - before.value('site_http_requests_total', live)).toBe(7);
    expect(after.value('site_http_request_duration_seconds_count', live) - before.value('site_http_request_duration_seconds_count', live)).toBe(7);
    expect(after.value('site_http_requests_total', posts) - before.value('site_http_requests_total', posts)).toBe(3);
    expect(after.value('site_http_requests_total', { route: 'unmatched', status: '404' }) - before.value('site_http_requests_total', { route: 'unmatched', status: '404' })).toBe(1);
    // The scrape itself is counted under its own route.
    expect(after.value('site_http_requests_total', { route: '/metrics', status: '200' })).toBeGreaterThanOrEqual(1);
    expect(after.text).not.toMatch(/no-such-post|nothing-here/);
  });

  it('counts failed admin logins and lockouts', async () => {
    const before = await scrapeMetrics(server.url, TOKEN);
    for (let i = 0; i < 2; i++) {
      const answer = await fetch(`${server.url}/api/admin/login`, { method: 'POST', headers: origin(server), body: JSON.stringify({ password: 'not the password' }) });
      expect(answer.status).toBe(401);
    }
    const after = await scrapeMetrics(server.url, TOKEN);
    const failures = (s: typeof before) => s.value('site_admin_login_failures_total', { reason: 'invalid_password' });
    expect(failures(after) - failures(before)).toBe(2);
    expect(after.value('site_admin_login_lockouts_total')).toBe(before.value('site_admin_login_lockouts_total'));
  });

  it('reports the contact outbox: a mail SMTP refuses waits in it, counted as failed', async () => {
    const before = await scrapeMetrics(server.url, TOKEN);
    expect(before.value('site_outbox_up')).toBe(1);
    expect(before.value('site_outbox_depth', { outbox: 'contact_mail' })).toBe(0);
    const answer = await fetch(`${server.url}/api/contact`, { method: 'POST', headers: origin(server), body: JSON.stringify(contactMessage('metrics')) });
    expect(answer.status).toBe(200);
    let after = before;
    await waitFor(async () => {
      after = await scrapeMetrics(server.url, TOKEN);
      return after.value('site_contact_mails_total', { result: 'failed' }) > 0;
    }, 10_000, 'the refused mail to be counted');
    expect(after.value('site_outbox_depth', { outbox: 'contact_mail' })).toBe(1);
    expect(after.value('site_outbox_depth', { outbox: 'webhook_deliveries' })).toBe(0);
    expect(after.value('site_outbox_oldest_age_seconds', { outbox: 'contact_mail' })).toBeGreaterThanOrEqual(0);
    expect(after.value('site_contact_mails_total', { result: 'sent' })).toBe(0);
    // The outbox is a job of the one runner: its runs are counted by kind, with when it last ran.
    expect(after.value('site_job_runs_total', { kind: 'contact-mail', result: 'ok' })).toBeGreaterThanOrEqual(1);
    expect(after.value('site_job_run_duration_seconds_count', { kind: 'contact-mail' })).toBeGreaterThanOrEqual(1);
    expect(after.value('site_job_runs_total', { kind: 'post-schedule', result: 'ok' })).toBeGreaterThanOrEqual(1);
    expect(after.has('site_job_last_run_age_seconds')).toBe(true);

    // The mail was queued by that request: the line of its failed attempt carries the request's id.
    const id = answer.headers.get('x-request-id');
    expect(id).toMatch(UUID);
    const failed = lines.find((l) => l.msg === 'contact mail not sent: the mail server is unavailable; will retry later');
    expect(failed?.requestId).toBe(id);
  });

  it('puts the request id on every log line of the request, whichever logger wrote it', async () => {
    const answer = await fetch(`${server.url}/api/test-observability/fails`);
    expect(answer.status).toBe(500);
    const id = answer.headers.get('x-request-id')!;
    expect(id).toMatch(UUID);
    const mine = lines.filter((l) => l.requestId === id);
    // The error handler's, the request log's, a service's, and the alert the 500 raised (the admin's error alert).
    expect(mine.map((l) => l.msg).sort()).toEqual(['a service line during the request', 'alert raised', 'request completed', 'request failed']);
    // One field, once: the child logger's binding and the scope's mixin never both write it.
    for (const line of mine) expect(Object.keys(line).filter((k) => k === 'requestId')).toHaveLength(1);
    // No other request's line carries it.
    const completed = lines.filter((l) => l.msg === 'request completed');
    expect(new Set(completed.map((l) => l.requestId)).size).toBe(completed.length);
  });
});

describe('X-Request-Id', () => {
  let direct: TestServer;
  let proxied: TestServer;
  beforeAll(async () => {
    direct = await startTestServer();
    proxied = await startTestServer({ env: { TRUST_PROXY: 'true', METRICS_TOKEN: TOKEN } });
  });
  afterAll(async () => {
    await direct?.close();
    await proxied?.close();
  });

  const idOf = async (base: string, path: string, headers: Record<string, string> = {}, init: RequestInit = {}) => {
    const answer = await fetch(`${base}${path}`, { ...init, headers });
    await answer.arrayBuffer();
    return answer.headers.get('x-request-id');
  };

  it('is made for every request and answered on every kind of answer', async () => {
    const ids = await Promise.all([
      idOf(direct.url, '/api/health/live'),
      idOf(direct.url, '/api/health/live'),
      idOf(direct.url, '/api/nope'),
      idOf(direct.url, '/assets/missing-file.js'),
      idOf(direct.url, '/some/page', { accept: 'text/html' }),
      idOf(direct.url, '/api/contact', { 'content-type': 'application/json', origin: direct.config.publicOrigin }, { method: 'POST', body: '{not json' }),
      idOf(proxied.url, '/metrics'),
    ]);
    for (const id of ids) expect(id).toMatch(UUID);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it("keeps a trusted proxy's id when it is one sane token, and replaces any other", async () => {
    expect(await idOf(proxied.url, '/api/health/live', { 'x-request-id': 'lb-7f3a:2024.11_abc-1' })).toBe('lb-7f3a:2024.11_abc-1');
    for (const bad of ['two words', 'x'.repeat(129), 'id"quoted', 'a,b', 'é']) {
      const id = await idOf(proxied.url, '/api/health/live', { 'x-request-id': encodeURI(bad) === bad ? bad : bad.replace(/[^\x20-\x7e]/g, '?') });
      expect(id, bad).toMatch(UUID);
    }
  });

  it('does not take an id from a client when no proxy is trusted', async () => {
    const id = await idOf(direct.url, '/api/health/live', { 'x-request-id': 'client-chosen-id' });
    expect(id).toMatch(UUID);
  });
});

describe('OpenTelemetry tracing (OTEL_EXPORTER_OTLP_ENDPOINT)', () => {
  let receiver: Awaited<ReturnType<typeof otlpReceiver>>;
  let server: TestServer;
  beforeAll(async () => {
    receiver = await otlpReceiver();
    server = await startTestServer({ env: { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url } });
  });
  afterAll(async () => {
    await server?.close();
    await receiver?.close();
  });

  it('exports a server span per request, with the database queries nested under it', async () => {
    const foreignTrace = '4bf92f3577b34da6a3ce929d0e0e4736';
    const answer = await fetch(`${server.url}/api/posts?limit=3`, { headers: { traceparent: `00-${foreignTrace}-00f067aa0ba902b7-01` } });
    expect(answer.status).toBe(200);
    const requestId = answer.headers.get('x-request-id');
    await fetch(`${server.url}/api/health/live`);
    await server.instance.flushTraces();
    await waitFor(() => receiver.spans().some((s) => s.name === 'GET /api/health/live'), 10_000, 'the spans to arrive');

    const spans = receiver.spans();
    const request = spans.find((s) => s.name === 'GET /api/posts');
    expect(request, spans.map((s) => s.name).join(', ')).toBeDefined();
    expect(request!.kind).toBe(2); // SERVER
    const attribute = (span: (typeof spans)[number], key: string) => Object.values(span.attributes.find((a) => a.key === key)?.value ?? {})[0];
    expect(attribute(request!, 'http.route')).toBe('/api/posts');
    expect(Number(attribute(request!, 'http.response.status_code'))).toBe(200);
    expect(attribute(request!, 'request.id')).toBe(requestId);
    // A client's traceparent is not continued (no proxy is trusted): the trace is the server's own.
    expect(request!.traceId).not.toBe(foreignTrace);

    const queries = spans.filter((s) => s.parentSpanId === request!.spanId && s.kind === 3); // CLIENT
    expect(queries.length).toBeGreaterThan(0);
    expect(queries.some((q) => q.name === 'SELECT blog_posts')).toBe(true);
    for (const q of queries) {
      expect(attribute(q, 'db.system.name')).toBe('sqlite');
      expect(String(attribute(q, 'db.query.text'))).toMatch(/^select /i);
    }
  });
});

describeNeedingBuild('metrics of server-rendered pages (the built dists)', { missing: serverEntriesMissing() }, () => {
  let server: TestServer;
  beforeAll(async () => {
    // The repository's own builds, served in place: the test writes nothing into the checkout.
    server = await startTestServer({ siteRoot: REPO_ROOT, env: { ...SERVE_BUILDS_IN_PLACE, METRICS_TOKEN: TOKEN, SSR_TIMEOUT_MS: '2000' } });
  }, 30_000);
  afterAll(() => server?.close());

  const visit = async (path: string) => {
    const answer = await fetch(`${server.url}${path}`, { headers: { accept: 'text/html' } });
    await answer.text();
    return answer.headers.get('x-render-cache');
  };

  it('counts render cache misses and hits, render times per remote and the served releases', async () => {
    const before = await scrapeMetrics(server.url, TOKEN);
    // The first visits may render more than once while the registry loads the remote's server module: what each
    // answer says it did (X-Render-Cache) is what the counters must add up to.
    const answers: Array<string | null> = [];
    for (let i = 0; i < 6; i++) answers.push(await visit('/roi-calculator'));
    expect(answers.at(-1)).toBe('hit');
    const count = (how: string) => answers.filter((a) => a === how).length;
    const after = await scrapeMetrics(server.url, TOKEN);
    const delta = (name: string, labels: Record<string, string> = {}) => after.value(name, labels) - before.value(name, labels);
    expect(count('miss')).toBeGreaterThan(0);
    expect(delta('site_render_cache_requests_total', { result: 'miss' })).toBe(count('miss'));
    expect(delta('site_render_cache_requests_total', { result: 'hit' })).toBe(count('hit'));
    // Each miss was rendered on the server, after its turn in the render queue.
    expect(delta('site_ssr_render_duration_seconds_count', { remote: 'marketing' })).toBe(count('miss'));
    expect(delta('site_ssr_queue_wait_seconds_count')).toBe(count('miss'));
    expect(delta('site_http_requests_total', { route: 'page', status: '200' })).toBe(6);
    const releases = after.labelsOf('site_remote_release');
    expect(releases.map((r) => r.remote)).toEqual(expect.arrayContaining(['blog', 'marketing']));
    for (const release of releases) {
      expect(release.value).toBe('1');
      expect(release.version).toBeTruthy();
    }
  });
});
