import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OPERATIONS, OUTGOING_WEBHOOKS } from '../services/openapi';
import { startTestServer, type TestServer } from '../test-support/test-server';

/** Koa router path (`/api/posts/:slug`) as OpenAPI writes it (`/api/posts/{slug}`). */
const openApiPath = (koaPath: string) => koaPath.replace(/:(\w+)/g, '{$1}');

describe('OpenAPI document (GET /api/openapi.json)', () => {
  let server: TestServer;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the document is walked as plain JSON
  let doc: any;

  beforeAll(async () => {
    server = await startTestServer();
    const res = await fetch(`${server.url}/api/openapi.json`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    doc = await res.json();
  });
  afterAll(() => server.close());

  it('is OpenAPI 3.1 with JSON Schema 2020-12 and the site as its server', () => {
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.jsonSchemaDialect).toBe('https://json-schema.org/draft/2020-12/schema');
    expect(doc.servers).toEqual([{ url: 'https://example.test' }]);
  });

  it('documents every public route of the router (admin routes are optional)', () => {
    const routes = server.instance.router.stack.flatMap((layer) =>
      layer.methods.filter((m) => m !== 'HEAD').map((m) => ({ method: m.toLowerCase(), path: openApiPath(String(layer.path)) })),
    );
    const publicRoutes = routes.filter((r) => !r.path.startsWith('/api/admin'));
    expect(publicRoutes.length).toBeGreaterThan(10);
    const undocumented = publicRoutes.filter((r) => !doc.paths[r.path]?.[r.method]).map((r) => `${r.method.toUpperCase()} ${r.path}`);
    expect(undocumented).toEqual([]);
    // And nothing documented that the router does not serve.
    const served = new Set(routes.map((r) => `${r.method} ${r.path}`));
    const phantom = OPERATIONS.filter((op) => !served.has(`${op.method} ${op.path}`)).map((op) => `${op.method} ${op.path}`);
    expect(phantom).toEqual([]);
  });

  it('every documented example validates against the zod schema it documents', () => {
    let examples = 0;
    for (const op of OPERATIONS) {
      const bodies = [op.body, ...Object.values(op.responses).map((r) => r.body)];
      for (const body of bodies) {
        if (!body || body.example === undefined) continue;
        examples += 1;
        const parsed = body.schema.safeParse(body.example);
        expect(parsed.success, `${op.method} ${op.path}: ${parsed.success ? '' : parsed.error.message}`).toBe(true);
      }
    }
    expect(examples).toBeGreaterThanOrEqual(30);
  });

  it('every request body has an example, and every 4xx answer is the error envelope (the contact form\'s also success and message)', () => {
    for (const op of OPERATIONS) {
      const entry = doc.paths[op.path][op.method];
      if (op.body) expect(entry.requestBody.content['application/json'].example, `${op.method} ${op.path}`).toBeDefined();
      // The spec's contact answer is { success, message } (section 7); its failures carry both beside the envelope.
      const fields = op.path === '/api/contact' ? ['error', 'message', 'success'] : ['error'];
      for (const [status, response] of Object.entries(entry.responses) as Array<[string, { content?: Record<string, { schema: { properties?: object } }> }]>) {
        if (Number(status) >= 400 && Number(status) < 500) expect(Object.keys(response.content?.['application/json']?.schema.properties ?? {}).sort(), `${op.path} ${status}`).toEqual(fields);
      }
    }
  });

  it("describes the contact endpoint's real failure answers (400, 413, 415, 500)", async () => {
    const contact = OPERATIONS.find((op) => op.method === 'post' && op.path === '/api/contact')!;
    expect(Object.keys(contact.responses)).toEqual(expect.arrayContaining(['400', '413', '415', '429', '500']));
    const send = (body: string, type = 'application/json') => fetch(`${server.url}/api/contact`, { method: 'POST', headers: { 'content-type': type }, body });
    const answers: Array<[number, Response]> = [
      [400, await send(JSON.stringify({ name: 'A', email: 'nope', message: 'hi' }))],
      [413, await send(JSON.stringify({ message: 'x'.repeat(server.config.bodyLimit) }))],
      [415, await send('name=A', 'application/x-www-form-urlencoded')],
    ];
    for (const [status, res] of answers) {
      expect(res.status).toBe(status);
      const parsed = contact.responses[status]!.body!.schema.safeParse(await res.json());
      expect(parsed.success, `${status}: ${parsed.success ? '' : parsed.error.message}`).toBe(true);
    }
    const documented = doc.paths['/api/contact'].post.responses['500'].content['application/json'];
    expect(documented.example).toEqual({ success: false, message: 'Failed to send message. Please try again.', error: { code: 'internal_error', message: 'Failed to send message. Please try again.' } });
  });

  it('documents the outgoing webhooks (OpenAPI 3.1 webhooks), each example valid for its payload schema', () => {
    expect(Object.keys(doc.webhooks)).toEqual(['lead.created', 'analysis.completed', 'post.published', 'post.updated', 'post.deleted']);
    for (const hook of OUTGOING_WEBHOOKS) {
      const parsed = hook.body.schema.safeParse(hook.body.example);
      expect(parsed.success, hook.type).toBe(true);
      const entry = doc.webhooks[hook.type].post;
      expect(entry.requestBody.content['application/json'].example).toEqual(hook.body.example);
      expect(entry.description).toMatch(/X-Webhook-Signature: t=<unix seconds>,v1=<hex>/);
      expect(entry.parameters.map((p: { name: string }) => p.name)).toEqual(['X-Webhook-Signature', 'X-Webhook-Event', 'X-Webhook-Id']);
    }
  });

  it('documents the webhook signature, replay and idempotency rules', () => {
    const webhook = doc.paths['/api/webhook'].post;
    expect(webhook.parameters.map((p: { name: string }) => p.name)).toEqual(['X-Webhook-Signature', 'Idempotency-Key']);
    expect(webhook.description).toMatch(/accepted once/);
    expect(webhook.requestBody.content['application/json'].schema.required).toEqual(
      expect.arrayContaining(['title', 'excerpt', 'content', 'author', 'category', 'metaDescription']),
    );
    expect(Object.keys(webhook.responses)).toEqual(expect.arrayContaining(['201', '400', '401', '409', '413', '429', '503']));
  });

  it('documents the list query of GET /api/posts from its contract', () => {
    const names = doc.paths['/api/posts'].get.parameters.map((p: { name: string }) => p.name);
    expect(names).toEqual(['q', 'category', 'limit', 'cursor']);
  });
});
