import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorEnvelopeSchema } from '@site/contracts/error';
import { MAX_TRACKING_BATCH, TRACKING_MESSAGES } from '@site/contracts/events';
import { testBackends, uniqueSchema } from '../../test-support/databases';
import { startTestServer, type TestServer } from '../../test-support/test-server';

/** The test server's PUBLIC_ORIGIN: what a page of the site sends as Origin. */
const ORIGIN = 'https://example.test';
/** What a person's browser sends (Chrome 131 on Windows). */
const BROWSER_UA = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
/** The server's clock during these tests. */
const NOW = new Date('2026-05-04T09:00:00.000Z');

const postJson = (url: string, body: unknown, contentType = 'application/json', headers: Record<string, string> = {}) =>
  fetch(`${url}/api/events`, {
    method: 'POST',
    headers: { 'content-type': contentType, origin: ORIGIN, 'user-agent': BROWSER_UA, ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });

async function envelope(response: Response) {
  return errorEnvelopeSchema.parse(await response.json()).error;
}

const view = (path: string, referrer = 'direct') => ({ name: 'page_view', path, props: { referrer } });

describe.each(testBackends().map((b) => b.name))('POST /api/events (%s)', (backend) => {
  let server: TestServer;
  const schema = uniqueSchema();
  const pageViews = (path: string) =>
    server.instance.db.selectFrom('events').select(['path', 'props', 'at']).where('name', '=', 'page_view').where('path', '=', path).execute();

  beforeAll(async () => {
    const clock = () => new Date(NOW);
    server =
      backend === 'postgres'
        ? await startTestServer({
            env: { DATABASE_URL: process.env.TEST_DATABASE_URL },
            deps: { database: { pgSchema: schema }, clock },
          })
        : await startTestServer({ deps: { clock } });
  });
  afterAll(async () => {
    await server.close();
  });

  it('accepts a valid event with 202 and stores it with the time the browser saw it', async () => {
    const response = await postJson(server.url, {
      name: 'roi_calculated',
      path: '/roi-calculator',
      props: { monthlySavings: 1200, industry: 'restaurant', annual: true },
      at: '2026-05-04T10:58:05.000+02:00',
    });
    expect(response.status).toBe(202);
    expect(await response.json()).toEqual({ accepted: true, recorded: 1 });

    const rows = await server.instance.db.selectFrom('events').selectAll().where('name', '=', 'roi_calculated').execute();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ path: '/roi-calculator', at: '2026-05-04T08:58:05.000Z' });
    expect(JSON.parse(rows[0]!.props!)).toEqual({ monthlySavings: 1200, industry: 'restaurant', annual: true });
  });

  it("uses the arrival time when the browser's clock is far from the server's (no event on another day)", async () => {
    const days = await Promise.all(
      ['2026-01-02T03:04:05.000Z', '2026-05-05T09:00:00.000Z'].map((at, i) => postJson(server.url, { ...view(`/clock-${i}`), at })),
    );
    expect(days.map((r) => r.status)).toEqual([202, 202]);
    expect((await pageViews('/clock-0'))[0]?.at).toBe(NOW.toISOString());
    expect((await pageViews('/clock-1'))[0]?.at).toBe(NOW.toISOString());
  });

  it('accepts a sendBeacon text/plain body holding JSON', async () => {
    const response = await postJson(server.url, view('/blog'), 'text/plain;charset=UTF-8');
    expect(response.status).toBe(202);
    expect((await pageViews('/blog')).map((r) => r.path)).toEqual(['/blog']);
  });

  it('stores a batch of page views in one request, each with its referrer class', async () => {
    const response = await postJson(server.url, {
      events: [view('/batch/a', 'search'), view('/batch/b', 'internal'), view('/batch/a', 'internal')],
    });
    expect(response.status).toBe(202);
    expect(await response.json()).toEqual({ accepted: true, recorded: 3 });
    const rows = await server.instance.db
      .selectFrom('events')
      .select(['path', 'props'])
      .where('path', 'in', ['/batch/a', '/batch/b'])
      .orderBy('path')
      .orderBy('props')
      .execute();
    expect(rows.map((r) => [r.path, JSON.parse(r.props!)])).toEqual([
      ['/batch/a', { referrer: 'internal' }],
      ['/batch/a', { referrer: 'search' }],
      ['/batch/b', { referrer: 'internal' }],
    ]);
  });

  it(`refuses an empty batch and one over ${MAX_TRACKING_BATCH} events, and names the bad event of a batch`, async () => {
    const empty = await postJson(server.url, { events: [] });
    expect(empty.status).toBe(400);
    expect((await envelope(empty)).message).toBe(`events: ${TRACKING_MESSAGES.batchEmpty}`);

    const tooMany = await postJson(server.url, { events: Array.from({ length: MAX_TRACKING_BATCH + 1 }, (_, i) => view(`/too-many/${i}`)) });
    expect(tooMany.status).toBe(400);
    expect((await envelope(tooMany)).message).toBe(`events: ${TRACKING_MESSAGES.batchTooLarge}`);

    const oneBad = await postJson(server.url, { events: [view('/one-bad/a'), { name: 'page_view', path: 'one-bad' }] });
    expect(oneBad.status).toBe(400);
    expect((await envelope(oneBad)).details).toEqual([expect.objectContaining({ path: 'events.1.path', message: 'Path must start with /' })]);
    // All or nothing: the valid event of a refused batch is not stored either.
    expect(await server.instance.db.selectFrom('events').select('path').where('path', 'like', '/too-many/%').execute()).toEqual([]);
    expect(await pageViews('/one-bad/a')).toEqual([]);
  });

  it('refuses a path with a query string or fragment, and page-view details beyond the referrer class', async () => {
    const query = await postJson(server.url, view('/contact?email=ada@example.com'));
    expect(query.status).toBe(400);
    expect((await envelope(query)).message).toBe(`path: ${TRACKING_MESSAGES.pathOnly}`);
    const fragment = await postJson(server.url, view('/#contact'));
    expect((await envelope(fragment)).message).toBe(`path: ${TRACKING_MESSAGES.pathOnly}`);

    const fullReferrer = await postJson(server.url, view('/blog', 'https://www.google.com/search?q=ada+lovelace'));
    expect(fullReferrer.status).toBe(400);
    expect((await envelope(fullReferrer)).message).toBe(`props.referrer: ${TRACKING_MESSAGES.pageViewProps}`);
    const extra = await postJson(server.url, { name: 'page_view', path: '/blog', props: { referrer: 'direct', email: 'ada@example.com' } });
    expect((await envelope(extra)).details).toEqual([expect.objectContaining({ path: 'props.email' })]);
  });

  it.each([
    ['Googlebot', { 'user-agent': 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)' }],
    ['a headless browser', { 'user-agent': BROWSER_UA.replace('Chrome/', 'HeadlessChrome/') }],
    ['curl', { 'user-agent': 'curl/8.5.0' }],
    ['no User-Agent', { 'user-agent': '' }],
    ['a prefetch (Sec-Purpose)', { 'sec-purpose': 'prefetch' }],
    ['a prerender (Sec-Purpose)', { 'sec-purpose': 'prefetch;prerender' }],
    ['a prefetch (Purpose)', { purpose: 'prefetch' }],
    ['Do Not Track', { dnt: '1' }],
    ['Global Privacy Control', { 'sec-gpc': '1' }],
  ])('accepts and does not store what %s sends', async (_who, headers) => {
    const path = `/ignored/${encodeURIComponent(_who).replaceAll('%', '')}`;
    const response = await postJson(server.url, { events: [view(path), { name: 'scroll_depth', path, props: { depth: 50 } }] }, 'application/json', headers);
    expect(response.status).toBe(202);
    expect(await response.json()).toEqual({ accepted: true, recorded: 0 });
    expect(await server.instance.db.selectFrom('events').select('id').where('path', '=', path).execute()).toEqual([]);
  });

  it("refuses events from another site's page (403), after telling a malformed body what is wrong (400)", async () => {
    const crossSite = await postJson(server.url, view('/cross-site'), 'text/plain', { origin: 'https://evil.example' });
    expect(crossSite.status).toBe(403);
    expect(await envelope(crossSite)).toMatchObject({ code: 'forbidden' });
    const noOrigin = await fetch(`${server.url}/api/events`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'user-agent': BROWSER_UA },
      body: JSON.stringify(view('/cross-site')),
    });
    expect(noOrigin.status).toBe(403);
    expect(await pageViews('/cross-site')).toEqual([]);

    const malformed = await postJson(server.url, { name: 'page_view' }, 'application/json', { origin: 'https://evil.example' });
    expect(malformed.status).toBe(400);
  });

  it('refuses an unknown event name with a 400 envelope naming the field', async () => {
    const response = await postJson(server.url, { name: 'hacked', path: '/' });
    expect(response.status).toBe(400);
    const error = await envelope(response);
    expect(error.code).toBe('validation_failed');
    expect(error.message).toMatch(/^name: /);
    expect(error.details).toEqual([expect.objectContaining({ path: 'name' })]);
  });

  it('names every invalid field', async () => {
    const response = await postJson(server.url, { name: 'scroll_depth', path: 'no-slash', props: { x: { nested: 1 } } });
    expect(response.status).toBe(400);
    const error = await envelope(response);
    expect(error.message).toContain('path: Path must start with /');
    expect(error.message).toContain('props.x');
  });

  it('answers 400 for malformed JSON', async () => {
    const response = await postJson(server.url, '{"name": "page_view",');
    expect(response.status).toBe(400);
    expect(await envelope(response)).toMatchObject({ code: 'invalid_json' });
  });

  it('answers 415 for a body that is not JSON', async () => {
    const response = await postJson(server.url, '<p>hello</p>', 'text/html');
    expect(response.status).toBe(415);
    expect(await envelope(response)).toMatchObject({ code: 'unsupported_media_type' });
  });

  it('answers 413 for a body over BODY_LIMIT (100 kB)', async () => {
    const big = JSON.stringify({ name: 'page_view', path: '/', padding: 'x'.repeat(200 * 1024) });
    const response = await postJson(server.url, big);
    expect(response.status).toBe(413);
    expect(await envelope(response)).toMatchObject({ code: 'payload_too_large' });
  });

  it('answers 405 with Allow: POST to other methods', async () => {
    const response = await fetch(`${server.url}/api/events`);
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toContain('POST');
  });
});

describe('POST /api/events rate limit', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.close());

  it('answers 429 with Retry-After after 120 requests a minute from one client (a batch is one)', async () => {
    for (let batch = 0; batch < 6; batch++) {
      const statuses = await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          postJson(server.url, { name: 'scroll_depth', path: '/', props: { depth: batch * 20 + i } }).then((r) => r.status),
        ),
      );
      expect(statuses).toEqual(Array(20).fill(202));
    }
    const limited = await postJson(server.url, { events: [view('/')] });
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await envelope(limited)).toMatchObject({ code: 'rate_limited' });
  });
});
