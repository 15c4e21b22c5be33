import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_ENDPOINTS } from '../api-routes';
import { registeredEndpoints } from '../endpoint';
import { apiDescription, describedOperations, EXAMPLE_WEBHOOK_SIGNATURE, OUTGOING_WEBHOOKS } from '../openapi-document';
import { API_VERSION } from '../../lib/version';
import { EXAMPLE_WEBHOOK_BODY } from '../openapi-parts';
import { verifyWebhookSignature } from '../../incoming-webhook/incoming-webhook-service';
import { answersWithEnvelope } from '../../middleware/errors';
import { startTestServer, type TestServer } from '../../test-support/test-server';

/** Koa router path (`/api/posts/:slug`) as OpenAPI writes it (`/api/posts/{slug}`). */
const openApiPath = (koaPath: string) => koaPath.replace(/:(\w+)/g, '{$1}');

/** Every operation as the description shows it, with its zod schemas (to parse each example with). */
const OPERATIONS = describedOperations(API_ENDPOINTS, { publicOrigin: 'https://example.test' });

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

  it('is served compressed when the client takes it (the same document, compressed once)', async () => {
    const plain = await (await fetch(`${server.url}/api/openapi.json`, { headers: { 'accept-encoding': 'identity' } })).text();
    for (const encoding of ['br', 'gzip']) {
      const res = await fetch(`${server.url}/api/openapi.json`, { headers: { 'accept-encoding': encoding } });
      expect(res.headers.get('content-encoding')).toBe(encoding);
      expect(res.headers.get('vary')).toMatch(/Accept-Encoding/i);
      expect(await res.text()).toBe(plain);
    }
  });

  it('is OpenAPI 3.1 with JSON Schema 2020-12 and the site as its server', () => {
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.jsonSchemaDialect).toBe('https://json-schema.org/draft/2020-12/schema');
    expect(doc.servers).toEqual([{ url: 'https://example.test' }]);
  });

  it('documents every route of the router, admin ones included, and nothing else', () => {
    const routes = server.instance.router.stack.flatMap((layer) =>
      layer.methods.filter((m) => m !== 'HEAD').map((m) => `${m.toLowerCase()} ${openApiPath(String(layer.path))}`),
    );
    expect(routes.filter((r) => r.includes('/api/admin/')).length).toBeGreaterThan(40);
    const described = Object.entries(doc.paths as Record<string, Record<string, unknown>>).flatMap(([path, item]) => Object.keys(item).map((method) => `${method} ${path}`));
    // A new route without a description fails here, and so does a description of a route that is gone.
    expect(routes.filter((r) => !described.includes(r)), 'routes without a description').toEqual([]);
    expect(described.filter((d) => !routes.includes(d)), 'descriptions of no route').toEqual([]);
    // Every route is an endpoint definition (http/endpoint.ts): one added to the router by hand fails here.
    const defined = registeredEndpoints(server.instance.router).map((e) => `${e.method} ${openApiPath(e.path)}`);
    expect(routes.filter((r) => !defined.includes(r)), 'routes without an endpoint definition').toEqual([]);
    expect(defined.length).toBe(new Set(defined).size);
  });

  it('names the session cookie the server reads over its scheme, and asks for the Origin where the server checks it', () => {
    expect(doc.components.securitySchemes.adminSession.description).toContain('`admin_session` over plain http');
    const plain = apiDescription(API_ENDPOINTS, { publicOrigin: 'http://localhost:3000', version: API_VERSION }) as typeof doc;
    expect(plain.components.securitySchemes.adminSession).toMatchObject({ in: 'cookie', name: 'admin_session' });
    const origin = (op: { parameters?: Array<{ name: string; in: string; required: boolean; schema: { enum?: string[] } }> }) =>
      op.parameters?.find((p) => p.in === 'header' && p.name === 'Origin');
    for (const [path, item] of Object.entries(doc.paths as Record<string, Record<string, Parameters<typeof origin>[0]>>)) {
      for (const [method, op] of Object.entries(item)) {
        const checked = (path.startsWith('/api/admin/') && method !== 'get' && path !== '/api/admin/login') || path === '/api/admin/login' || path === '/api/events';
        expect(Boolean(origin(op)), `${method} ${path}`).toBe(checked);
        if (checked) {
          expect(origin(op)).toMatchObject({ required: true, schema: { enum: ['https://example.test'] } });
          expect(Object.keys((op as { responses: object }).responses), `${method} ${path}`).toContain('403');
        }
      }
    }
    // A loopback site also takes its loopback aliases (middleware/same-origin.ts).
    expect(origin(plain.paths['/api/events'].post)!.schema.enum).toEqual(['http://localhost:3000', 'http://127.0.0.1:3000', 'http://[::1]:3000']);
  });

  it('states the rules the server enforces beyond the contracts\' shapes', () => {
    const json = (path: string, method: string) => doc.paths[path][method].requestBody.content['application/json'].schema;
    // At most 20 outgoing webhook endpoints.
    const create = doc.paths['/api/admin/webhooks'].post.responses['409'].content['application/json'];
    expect(create.example.error.code).toBe('webhook_limit');
    // An endpoint URL is http(s), with a host and no credentials.
    const url = new RegExp(json('/api/admin/webhooks', 'post').properties.url.pattern, 'u');
    expect(['https://n8n.example.com/webhook/site', 'http://127.0.0.1:5678/hook?x=1'].every((u) => url.test(u))).toBe(true);
    expect(['ftp://files.example.com/', 'https://user:secret@example.com/', 'javascript:alert(1)', 'https://'].some((u) => url.test(u))).toBe(false);
    expect(json('/api/admin/webhooks/{id}', 'patch').properties.url.pattern).toBe(json('/api/admin/webhooks', 'post').properties.url.pattern);
    // publishAt is a date-time; status "scheduled" needs it.
    for (const [path, method] of [['/api/webhook', 'post'], ['/api/admin/posts/{id}/schedule', 'post']] as const) {
      expect(json(path, method).properties.publishAt).toMatchObject({ format: 'date-time' });
      expect(new RegExp(json(path, method).properties.publishAt.pattern, 'u').test('2026-12-01T09:00:00-08:00')).toBe(true);
    }
    expect(json('/api/webhook', 'post')).toMatchObject({ if: { properties: { status: { const: 'scheduled' } } }, then: { required: ['publishAt'] } });
    // A tracked path has no query string or fragment.
    // (One event is one of the site's events, a remote's view or a remote's failure: each has the path.)
    const event = json('/api/events', 'post').anyOf[1].oneOf[0];
    const path = new RegExp(event.properties.path.pattern, 'u');
    expect([path.test('/blog/a-post'), path.test('/contact?email=a@b.example'), path.test('/blog#top')]).toEqual([true, false, false]);
    // The upload's file is bytes: a generated client types it as a Blob.
    const upload = doc.paths['/api/admin/media'].post.requestBody.content['multipart/form-data'].schema.properties.file;
    expect(upload).toMatchObject({ type: 'string', format: 'binary', contentMediaType: 'application/octet-stream' });
  });

  it('declares security on every operation: [] where public, the session cookie for admin routes, the signature for the webhook', () => {
    expect(doc.components.securitySchemes.adminSession).toMatchObject({ type: 'apiKey', in: 'cookie', name: '__Host-admin_session' });
    expect(doc.components.securitySchemes.webhookSignature).toMatchObject({ type: 'apiKey', in: 'header', name: 'X-Webhook-Signature' });
    for (const [path, item] of Object.entries(doc.paths as Record<string, Record<string, { security?: unknown[] }>>)) {
      for (const [method, op] of Object.entries(item)) {
        expect(op.security, `${method} ${path}`).toBeInstanceOf(Array);
        const open = (method === 'post' && path === '/api/admin/login') || (method === 'get' && path === '/api/admin/session');
        if (path.startsWith('/api/admin/') && !open) expect(op.security, `${method} ${path}`).toEqual([{ adminSession: [] }]);
      }
    }
    expect(doc.paths['/api/webhook'].post.security).toEqual([{ webhookSignature: [] }]);
    expect(doc.paths['/api/posts'].get.security).toEqual([]);
  });

  it('every documented example validates against the zod schema it documents', () => {
    let examples = 0;
    for (const op of OPERATIONS) {
      const bodies = [op.body, ...Object.values(op.responses).map((r) => r.body)];
      for (const body of bodies) {
        if (!body) continue;
        // One `example`, or several named `examples` (an answer with several error codes).
        const values = body.examples ? Object.values(body.examples).map((e) => e.value) : body.example === undefined ? [] : [body.example];
        for (const value of values) {
          examples += 1;
          const parsed = body.schema.safeParse(value);
          expect(parsed.success, `${op.method} ${op.path}: ${parsed.success ? '' : parsed.error.message}`).toBe(true);
        }
      }
    }
    expect(examples).toBeGreaterThanOrEqual(30);
  });

  it('every request body has an example, and every 4xx answer is the error envelope (the contact form\'s also success and message), or its message as text/plain outside /api', () => {
    for (const op of OPERATIONS) {
      const entry = doc.paths[op.path][op.method];
      if (op.body && op.body.contentType === undefined) expect(entry.requestBody.content['application/json'].example, `${op.method} ${op.path}`).toBeDefined();
      // The spec's contact answer is { success, message } (section 7); its failures carry both beside the envelope.
      const fields = op.path === '/api/contact' ? ['error', 'message', 'success'] : ['error'];
      for (const [status, response] of Object.entries(entry.responses) as Array<[string, { content?: Record<string, { schema: { properties?: object } }> }]>) {
        if (Number(status) < 400 || Number(status) >= 500) continue;
        // Outside /api (a feed, a sitemap, /metrics) an error is its message as text/plain (middleware/errors.ts).
        if (!answersWithEnvelope(op.path)) expect(Object.keys(response.content ?? { 'text/plain': {} }), `${op.path} ${status}`).toEqual(['text/plain']);
        else expect(Object.keys(response.content?.['application/json']?.schema.properties ?? {}).sort(), `${op.path} ${status}`).toEqual(fields);
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
    expect(Object.keys(doc.webhooks)).toEqual(['lead.created', 'analysis.completed', 'post.published', 'post.updated', 'post.deleted', 'webhook.test']);
    for (const hook of OUTGOING_WEBHOOKS) {
      const parsed = hook.body.schema.safeParse(hook.body.example);
      expect(parsed.success, hook.type).toBe(true);
      const entry = doc.webhooks[hook.type].post;
      expect(entry.requestBody.content['application/json'].example).toEqual(hook.body.example);
      expect(entry.description).toMatch(/X-Webhook-Signature: t=<unix seconds>,v1=<hex>/);
      expect(entry.parameters.map((p: { name: string }) => p.name)).toEqual(['X-Webhook-Event', 'X-Webhook-Id', 'traceparent']);
      // Signed with the endpoint's own secret, not WEBHOOK_SECRET (the incoming webhook's).
      expect(entry.security).toEqual([{ outgoingWebhookSignature: [] }]);
    }
  });

  it('documents the webhook signature, replay and idempotency rules', () => {
    const webhook = doc.paths['/api/webhook'].post;
    // The signature is the operation's security (apiKey in the X-Webhook-Signature header), not a plain parameter.
    expect(webhook.parameters.map((p: { name: string }) => p.name)).toEqual(['Idempotency-Key']);
    const scheme = doc.components.securitySchemes.webhookSignature.description as string;
    expect(scheme).toContain(EXAMPLE_WEBHOOK_SIGNATURE);
    // The example signature is real: it verifies for the example body and secret at its own time.
    const t = Number(/^t=(\d+)/.exec(EXAMPLE_WEBHOOK_SIGNATURE)![1]);
    expect(verifyWebhookSignature(EXAMPLE_WEBHOOK_SIGNATURE, JSON.stringify(EXAMPLE_WEBHOOK_BODY), 'example-webhook-secret', t * 1000)).toMatchObject({ ok: true });
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
