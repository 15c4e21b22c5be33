import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { z } from 'zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RELEASE_NAME } from '../../site/releases/release-format';
import { verifyWebhookSignature } from '../../incoming-webhook/incoming-webhook-service';
import { ADMIN_ENV, adminCookie } from '../../test-support/admin-session';
import { startTestServer, type TestServer } from '../../test-support/test-server';
import { API_ENDPOINTS } from '../api-routes';
import { defineEndpoints } from '../endpoint';
import { apiDescription } from '../openapi-document';

/*
 * The description is the whole truth: each gap a third-party contract test found, checked against what the running
 * server does (the metrics endpoint and its token, the test event, a delivery's headers and signing secret, the content
 * type of an error outside /api, the lead update's unknown keys, integer query parameters, a release name's pattern).
 */

const METRICS_TOKEN = 'openapi-truth-metrics-token';
const WEBHOOK_SECRET = 'openapi-truth-webhook-secret';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the document is walked as plain JSON
type Doc = any;

describe('the OpenAPI document says what the server does', () => {
  let server: TestServer;
  let sink: Server;
  let sinkUrl: string;
  const received: Array<{ headers: IncomingHttpHeaders; body: string }> = [];
  let doc: Doc;
  let cookie: string;

  beforeAll(async () => {
    sink = createServer((req, res) => {
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk.toString()));
      req.on('end', () => {
        received.push({ headers: req.headers, body });
        res.writeHead(204).end();
      });
    });
    await new Promise<void>((resolve) => sink.listen(0, '127.0.0.1', resolve));
    sinkUrl = `http://127.0.0.1:${(sink.address() as AddressInfo).port}/hook`;
    server = await startTestServer({ env: { ...ADMIN_ENV, METRICS_TOKEN, WEBHOOK_SECRET, WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' } });
    doc = await (await fetch(`${server.url}/api/openapi.json`)).json();
    cookie = await adminCookie(server);
  }, 60_000);

  afterAll(async () => {
    await server?.close();
    await new Promise((resolve) => sink?.close(resolve));
  });

  const admin = (path: string, init: RequestInit = {}) =>
    fetch(`${server.url}${path}`, { ...init, headers: { cookie, origin: server.config.publicOrigin, 'content-type': 'application/json', ...init.headers } });

  it('describes GET /metrics and its bearer token, with each answer as sent', async () => {
    const op = doc.paths['/metrics'].get;
    expect(op.security).toEqual([{ metricsToken: [] }]);
    expect(doc.components.securitySchemes.metricsToken).toMatchObject({ type: 'http', scheme: 'bearer' });
    expect(doc.components.securitySchemes.metricsToken.description).toContain('METRICS_TOKEN');
    const refused = await fetch(`${server.url}/metrics`);
    expect(refused.status).toBe(401);
    expect(Object.keys(op.responses['401'].content)).toEqual([refused.headers.get('content-type')!.split(';')[0]]);
    expect(await refused.text()).toBe(op.responses['401'].content['text/plain'].example);
    const scraped = await fetch(`${server.url}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
    expect(scraped.status).toBe(200);
    expect(Object.keys(op.responses['200'].content)).toEqual([scraped.headers.get('content-type')!.split(';')[0]]);
    // Without METRICS_TOKEN the server has no /metrics, and neither has its description.
    const plain = apiDescription(API_ENDPOINTS, { publicOrigin: 'https://example.test', version: '1' }) as Doc;
    expect(plain.paths['/metrics']).toBeUndefined();
    expect(plain.components.securitySchemes.metricsToken).toBeUndefined();
  });

  it("describes the test event, a delivery's traceparent, and the endpoint's own signing secret", async () => {
    const created = (await (await admin('/api/admin/webhooks', { method: 'POST', body: JSON.stringify({ url: sinkUrl, events: ['lead.created'] }) })).json()) as { id: string; secret: string };
    const sent = await admin(`/api/admin/webhooks/${created.id}/test`, { method: 'POST' });
    expect(sent.status).toBeLessThan(300);
    await expect.poll(() => received.length).toBe(1);
    const delivery = received[0]!;
    const hook = doc.webhooks['webhook.test'].post;
    const ajv = new Ajv2020({ strict: false });
    const schema = hook.requestBody.content['application/json'].schema;
    expect(ajv.validate(schema, JSON.parse(delivery.body)), ajv.errorsText()).toBe(true);
    // Every documented header is sent, and valid for its schema.
    for (const parameter of hook.parameters as Array<{ name: string; required: boolean; schema: object }>) {
      const value = delivery.headers[parameter.name.toLowerCase()];
      expect(value, parameter.name).toBeDefined();
      expect(ajv.validate(parameter.schema, value), `${parameter.name}: ${String(value)}`).toBe(true);
    }
    expect(hook.parameters.map((p: { name: string }) => p.name)).toContain('traceparent');
    // Signed with the endpoint's secret (as the scheme says), not with WEBHOOK_SECRET.
    expect(hook.security).toEqual([{ outgoingWebhookSignature: [] }]);
    const scheme = doc.components.securitySchemes.outgoingWebhookSignature;
    expect(scheme).toMatchObject({ type: 'apiKey', in: 'header', name: 'X-Webhook-Signature' });
    expect(scheme.description).toMatch(/the endpoint's signing secret/);
    const signature = delivery.headers['x-webhook-signature'] as string;
    expect(verifyWebhookSignature(signature, delivery.body, created.secret, Date.now())).toMatchObject({ ok: true });
    expect(verifyWebhookSignature(signature, delivery.body, WEBHOOK_SECRET, Date.now())).toMatchObject({ ok: false });
  });

  it('describes an error outside /api in the content type it is sent in (a sitemap part: text/plain)', async () => {
    const res = await fetch(`${server.url}/sitemaps/posts-999.xml`);
    expect(res.status).toBe(404);
    expect(res.headers.get('content-type')).toMatch(/^text\/plain/);
    const documented = doc.paths['/sitemaps/posts-{n}.xml'].get.responses['404'].content;
    expect(Object.keys(documented)).toEqual(['text/plain']);
    expect(await res.text()).toBe(documented['text/plain'].example);
  });

  it('describes the lead update as strictly as the server reads it: unknown keys are refused', async () => {
    const schema = doc.paths['/api/admin/leads/{id}'].patch.requestBody.content['application/json'].schema;
    expect(schema.additionalProperties).toBe(false);
    const res = await admin('/api/admin/leads/some-id', { method: 'PATCH', body: JSON.stringify({ read: true, starred: true }) });
    expect(res.status).toBe(400);
    expect(JSON.stringify(await res.json())).toContain('starred');
  });

  it('refuses an integer query parameter that is not decimal digits, on every operation that takes one', async () => {
    const checked: string[] = [];
    for (const [path, item] of Object.entries(doc.paths as Record<string, Record<string, { parameters?: Array<{ in: string; name: string; schema: { type?: string } }> }>>)) {
      if (path.includes('{') || !item.get) continue;
      for (const p of item.get.parameters ?? []) {
        if (p.in !== 'query' || p.schema.type !== 'integer') continue;
        for (const odd of ['1e1', '0x10', ' 5']) {
          const res = await admin(`${path}?${p.name}=${encodeURIComponent(odd)}`);
          expect(res.status, `${path}?${p.name}=${odd}`).toBe(400);
          expect(((await res.json()) as { error: { message: string } }).error.message).toContain(p.name);
        }
        const fine = await admin(`${path}?${p.name}=5`);
        expect(fine.status, `${path}?${p.name}=5`).toBe(200);
        checked.push(`${path} ${p.name}`);
      }
    }
    expect(checked).toEqual(expect.arrayContaining(['/api/posts limit', '/api/admin/leads limit']));
    const deliveries = await admin('/api/admin/webhooks/no-such-endpoint/deliveries?limit=1e1');
    expect(deliveries.status).toBe(404);
  });

  it("writes a release name's pattern as the server reads it, and refuses to describe a pattern with flags", async () => {
    const pattern = doc.paths['/api/releases/{app}/promote'].post.requestBody.content['application/json'].schema.properties.version.pattern;
    const documented = new RegExp(pattern, 'u');
    for (const name of ['1.4.0', 'beta.2', 'Release_7+build.1', '-1', '.hidden', 'a b', 'x'.repeat(101)]) expect(documented.test(name), name).toBe(RELEASE_NAME.test(name));
    const query = doc.paths['/api/releases/{app}'].post.parameters.find((p: { name: string }) => p.name === 'version');
    expect(query.schema.pattern).toBe(pattern);
    const flagged = defineEndpoints({}, (endpoint) => [
      endpoint({ method: 'get', path: '/api/flagged', tag: 'Health', summary: 'x', query: { schema: z.object({ v: z.string().regex(/^[a-z]+$/i) }) }, responses: { 200: { description: 'x' } }, handle: () => ({}) }),
    ]);
    expect(() => apiDescription(flagged.endpoints, { publicOrigin: 'https://example.test', version: '1' })).toThrow(/cannot be described/);
  });
});
