import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorEnvelopeSchema } from '@site/contracts/error';
import { testBackends, uniqueSchema } from '../../test-support/databases';
import { startTestServer, type TestServer } from '../../test-support/test-server';
import { sql } from 'kysely';

const postJson = (url: string, body: unknown, contentType = 'application/json') =>
  fetch(`${url}/api/events`, {
    method: 'POST',
    headers: { 'content-type': contentType },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });

async function envelope(response: Response) {
  return errorEnvelopeSchema.parse(await response.json()).error;
}

describe.each(testBackends().map((b) => b.name))('POST /api/events (%s)', (backend) => {
  let server: TestServer;
  const schema = uniqueSchema();

  beforeAll(async () => {
    server =
      backend === 'postgres'
        ? await startTestServer({
            env: { DATABASE_URL: process.env.TEST_DATABASE_URL },
            deps: { database: { pgSchema: schema } },
          })
        : await startTestServer();
  });
  afterAll(async () => {
    if (backend === 'postgres') await sql`drop schema if exists ${sql.id(schema)} cascade`.execute(server.instance.db);
    await server.close();
  });

  it('accepts a valid event with 202 and stores it', async () => {
    const response = await postJson(server.url, {
      name: 'roi_calculated',
      path: '/roi-calculator',
      props: { monthlySavings: 1200, industry: 'restaurant', annual: true },
      at: '2026-01-02T03:04:05.000+02:00',
    });
    expect(response.status).toBe(202);
    expect(await response.json()).toEqual({ accepted: true });

    const rows = await server.instance.db.selectFrom('events').selectAll().where('name', '=', 'roi_calculated').execute();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ path: '/roi-calculator', at: '2026-01-02T01:04:05.000Z' });
    expect(JSON.parse(rows[0]!.props!)).toEqual({ monthlySavings: 1200, industry: 'restaurant', annual: true });
  });

  it('accepts a sendBeacon text/plain body holding JSON', async () => {
    const response = await postJson(server.url, { name: 'page_view', path: '/blog' }, 'text/plain;charset=UTF-8');
    expect(response.status).toBe(202);
    const stored = await server.instance.db.selectFrom('events').select('path').where('name', '=', 'page_view').execute();
    expect(stored).toEqual([{ path: '/blog' }]);
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
    const response = await postJson(server.url, { name: 'page_view', path: 'no-slash', props: { x: { nested: 1 } } });
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

  it('answers 429 with Retry-After after 120 events a minute from one client', async () => {
    for (let batch = 0; batch < 6; batch++) {
      const statuses = await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          postJson(server.url, { name: 'scroll_depth', path: '/', props: { depth: batch * 20 + i } }).then((r) => r.status),
        ),
      );
      expect(statuses).toEqual(Array(20).fill(202));
    }
    const limited = await postJson(server.url, { name: 'scroll_depth', path: '/' });
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await envelope(limited)).toMatchObject({ code: 'rate_limited' });
  });
});
