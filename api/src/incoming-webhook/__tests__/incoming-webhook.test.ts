import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postListSchema, webhookResultSchema } from '@site/contracts/posts';
import { signWebhookBody } from '../incoming-webhook-service';
import { testBackends, uniqueSchema } from '../../test-support/databases';
import { startTestServer, type TestServer } from '../../test-support/test-server';

const SECRET = 'test-webhook-secret';
const post = {
  title: 'Weekly automation tips from n8n',
  excerpt: 'Five small automations that save a local business hours.',
  content: `<h2>Tips</h2><p>${'Automate the boring parts of the week. '.repeat(8)}</p><img src=x onerror="alert(1)">`,
  author: 'n8n Bot',
  category: 'AI Automation',
  metaDescription: 'Five small automations that save a local business hours every single week.',
  keywords: ['n8n', 'tips'],
  status: 'published',
};
// The server and the test share one frozen instant, so "301 s away" is 301 s on both sides (with two
// clocks a second could tick between signing and checking, and +301 would read as 300).
const NOW_MS = Date.now();
const clock = () => new Date(NOW_MS);
const nowSeconds = () => Math.floor(NOW_MS / 1000);

describe.each(testBackends().map((b) => b.name))('POST /api/webhook (%s)', (backend) => {
  let server: TestServer;
  const schema = uniqueSchema();

  beforeAll(async () => {
    server = await startTestServer({
      env: { WEBHOOK_SECRET: SECRET, ...(backend === 'postgres' ? { DATABASE_URL: process.env.TEST_DATABASE_URL } : {}) },
      deps: { clock, ...(backend === 'postgres' ? { database: { pgSchema: schema } } : {}) },
    });
  });
  afterAll(async () => {
    await server.close();
  });

  const send = (body: unknown, headers: Record<string, string> = {}, sign: string | null = SECRET, t = nowSeconds()) => {
    const raw = typeof body === 'string' ? body : JSON.stringify(body);
    return fetch(`${server.url}/api/webhook`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(sign ? { 'x-webhook-signature': signWebhookBody(sign, raw, t) } : {}), ...headers },
      body: raw,
    });
  };

  it('creates a post from a correctly signed delivery (source n8n, sanitized, status carried)', async () => {
    const res = await send(post);
    expect(res.status).toBe(201);
    const result = webhookResultSchema.parse(await res.json());
    expect(result).toEqual({
      id: expect.any(String),
      slug: 'weekly-automation-tips-from-n8n',
      status: 'published',
      url: 'https://example.test/blog/weekly-automation-tips-from-n8n',
      adminUrl: `https://example.test/admin/posts/${result.id}/edit`,
    });
    const stored = await server.instance.services.posts.getById(result.id);
    expect(stored.source).toBe('n8n');
    expect(stored.content).not.toMatch(/onerror/);
    const list = postListSchema.parse(await (await fetch(`${server.url}/api/posts`)).json());
    expect(list.posts.map((p) => p.slug)).toContain(result.slug);
  });

  it('answers a draft with its admin edit page and no public url (its public page is a 404 until it is published)', async () => {
    const res = await send({ ...post, title: 'A draft from the workflow', status: 'draft' });
    expect(res.status).toBe(201);
    const result = webhookResultSchema.parse(await res.json());
    expect(result).toEqual({ id: expect.any(String), slug: 'a-draft-from-the-workflow', status: 'draft', adminUrl: `https://example.test/admin/posts/${result.id}/edit` });
    expect((await fetch(`${server.url}/api/posts/${result.slug}`)).status).toBe(404);
    // No status at all is a draft too.
    const { status: _status, ...withoutStatus } = post;
    const plain = webhookResultSchema.parse(await (await send({ ...withoutStatus, title: 'Another draft from the workflow' })).json());
    expect([plain.status, plain.url, plain.adminUrl]).toEqual(['draft', undefined, `https://example.test/admin/posts/${plain.id}/edit`]);
  });

  it('refuses a missing, malformed or wrong signature with 401', async () => {
    for (const res of [
      await send(post, {}, null),
      await send(post, { 'x-webhook-signature': 't=123,v1=zz' }, null),
      await send(post, {}, 'another-secret'),
    ]) {
      expect(res.status).toBe(401);
      expect(((await res.json()) as { error: { code: string } }).error.code).toBe('invalid_signature');
    }
  });

  it('refuses a signature over a different body (tampering)', async () => {
    const t = nowSeconds();
    const res = await fetch(`${server.url}/api/webhook`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-webhook-signature': signWebhookBody(SECRET, JSON.stringify(post), t) },
      body: JSON.stringify({ ...post, title: 'Tampered title here' }),
    });
    expect(res.status).toBe(401);
  });

  it('refuses a timestamp more than 300 s away', async () => {
    expect((await send(post, {}, SECRET, nowSeconds() - 301)).status).toBe(401);
    expect((await send(post, {}, SECRET, nowSeconds() + 301)).status).toBe(401);
  });

  it('returns the first result for a retried delivery with the same Idempotency-Key', async () => {
    const body = { ...post, title: 'Idempotent delivery test' };
    const first = await send(body, { 'idempotency-key': 'delivery-42' });
    expect(first.status).toBe(201);
    const firstResult = await first.json();
    const retry = await send(body, { 'idempotency-key': 'delivery-42' });
    expect(retry.status).toBe(201);
    expect(retry.headers.get('idempotent-replayed')).toBe('true');
    expect(await retry.json()).toEqual(firstResult);
    const all = await server.instance.services.posts.listAll();
    expect(all.filter((p) => p.title === 'Idempotent delivery test')).toHaveLength(1);
    // The same key with another body is a conflict, not a silent success.
    expect((await send({ ...body, title: 'Different body same key' }, { 'idempotency-key': 'delivery-42' })).status).toBe(409);
  });

  it('never creates a duplicate when the exact signed request is replayed without a key', async () => {
    const body = JSON.stringify({ ...post, title: 'Replayed without a key' });
    const signature = signWebhookBody(SECRET, body, nowSeconds());
    const once = () => fetch(`${server.url}/api/webhook`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-webhook-signature': signature }, body });
    const a = await (await once()).json();
    const b = await (await once()).json();
    expect(b).toEqual(a);
    expect((await server.instance.services.posts.listAll()).filter((p) => p.title === 'Replayed without a key')).toHaveLength(1);
  });

  const refusal = async (body: unknown) => {
    const res = await send(body);
    expect(res.status).toBe(400);
    const { error } = (await res.json()) as { error: { code: string; message: string; details: unknown } };
    expect(error.code).toBe('validation_failed');
    return error;
  };

  it("answers a rule broken with the spec's exact sentence; the field, rule and length received in details", async () => {
    const error = await refusal({ ...post, title: 'Hey' });
    expect(error.message).toBe('Validation failed: Title must be at least 5 characters long');
    expect(error.details).toEqual([{ path: 'title', message: 'must be at least 5 characters (got 3)' }]);
  });

  it("joins several failures in the spec's order with ', ', missing fields included (what an n8n user fixes is in details)", async () => {
    const { author: _author, title: _title, excerpt: _excerpt, metaDescription: _meta, ...rest } = post;
    // Sent in another order than the spec's: the answer follows the spec (title, excerpt, content, author, category, meta).
    const body = { metaDescription: 'too short', ...rest, excerpt: 'Short excerpt', title: 'Hey' };
    const error = await refusal(body);
    expect(error.message).toBe(
      'Validation failed: Title must be at least 5 characters long, Excerpt must be at least 20 characters long, ' +
        'Author name must be at least 2 characters long, Meta description must be at least 50 characters long',
    );
    expect(error.details).toEqual([
      { path: 'title', message: 'must be at least 5 characters (got 3)' },
      { path: 'excerpt', message: 'must be at least 20 characters (got 13)' },
      { path: 'author', message: 'is required (at least 2 characters)' },
      { path: 'metaDescription', message: 'must be at least 50 characters (got 9)' },
    ]);
    // Word for word what the admin form gets for the same post.
    await expect(server.instance.services.posts.create(body)).rejects.toMatchObject({ message: error.message });
  });

  it('defaults to a draft when no status is sent', async () => {
    const { status: _status, ...rest } = post;
    const res = await send({ ...rest, title: 'Draft from n8n' });
    expect(((await res.json()) as { status: string }).status).toBe('draft');
  });
});

describe('POST /api/webhook without WEBHOOK_SECRET', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ env: { WEBHOOK_SECRET: undefined } });
  });
  afterAll(async () => server.close());

  it('answers 503 with a clear message and never creates a post', async () => {
    const raw = JSON.stringify(post);
    const res = await fetch(`${server.url}/api/webhook`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-webhook-signature': signWebhookBody('anything', raw, nowSeconds()) },
      body: raw,
    });
    expect(res.status).toBe(503);
    expect(((await res.json()) as { error: { message: string } }).error.message).toMatch(/WEBHOOK_SECRET/);
    expect(await server.instance.services.posts.listAll()).toHaveLength(3);
  });
});
