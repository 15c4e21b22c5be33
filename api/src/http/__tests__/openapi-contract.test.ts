import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { generateSync } from 'json-schema-faker';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { signWebhookBody } from '../../incoming-webhook/incoming-webhook-service';
import { packReleaseTarball } from '../../site/releases/release-tarball';
import { blogServerModule, MANIFESTS } from '../../test-support/site-fixture';
import { ADMIN_ENV, adminCookie } from '../../test-support/admin-session';
import { picture } from '../../test-support/media-fixtures';
import { startTestServer, type TestServer } from '../../test-support/test-server';

/*
 * The contract test: requests generated from the served description (json-schema-faker, seeded), sent over HTTP to a
 * real app on 127.0.0.1, every answer checked against the description (ajv, JSON Schema 2020-12). Valid requests must
 * succeed (or give a documented 404/409: state, e.g. an id that does not exist); mutated ones must give a documented
 * 4xx. Every answer's status must be documented, its content type the documented one, its body valid for its schema.
 */

const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => void;
const WEBHOOK_SECRET = 'contract-test-webhook-secret';
const METRICS_TOKEN = 'contract-test-metrics-token';
const SEED = 20_260_504;

type Json = Record<string, unknown>;
interface Operation {
  method: string;
  path: string;
  op: Json & { parameters?: Json[]; requestBody?: { content: Record<string, { schema: Json }> }; responses: Record<string, { content?: Record<string, { schema: Json }> }>; security: Json[] };
}

let server: TestServer;
let sink: Server;
let sinkUrl: string;
let doc: Json & { paths: Record<string, Record<string, Operation['op']>>; components: { schemas: Record<string, Json> } };
let cookie: string;
/** A blog build, as `POST /api/releases/blog` takes it. */
const blogRelease = (round: number) =>
  new Map([
    ['mfe-manifest.json', Buffer.from(JSON.stringify({ ...MANIFESTS.blog, version: `3.0.${round}` }))],
    ['assets/remoteEntry.js', Buffer.from('export const blog = true;')],
    ['server/routes.js', Buffer.from(blogServerModule())],
  ]);
/** A deploy token for every app (the releases endpoints). */
let deployToken: string;
const ajv = new Ajv2020({ strict: false, allErrors: true });
addFormats(ajv);

/** `#/components/schemas/X` references resolved in place (the description's components hold no references). */
function deref(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(deref);
  if (schema === null || typeof schema !== 'object') return schema;
  const ref = (schema as Json).$ref;
  if (typeof ref === 'string') return deref(doc.components.schemas[ref.replace('#/components/schemas/', '')]);
  return Object.fromEntries(Object.entries(schema).map(([k, v]) => [k, deref(v)]));
}

const validators = new Map<unknown, ValidateFunction>();
function validator(schema: Json): ValidateFunction {
  let v = validators.get(schema);
  if (!v) validators.set(schema, (v = ajv.compile(deref(schema) as Json)));
  return v;
}

/** A value valid for `schema`: json-schema-faker's, checked with ajv (it can miss a pattern or a lookaround). */
function validValue(schema: Json, seed: number): unknown {
  const resolved = deref(schema) as Json;
  const check = validator(schema);
  for (let attempt = 0; attempt < 40; attempt++) {
    const value = generateSync(resolved as never, { seed: seed + attempt * 7919, alwaysFakeOptionals: attempt % 2 === 0, maxLength: 200 } as never);
    if (check(value)) return value;
  }
  throw new Error(`json-schema-faker found no valid value for ${JSON.stringify(resolved).slice(0, 300)}`);
}

/** Mutations of a valid object body, each one invalid for the schema (ajv says so, or the case is dropped). */
function mutations(schema: Json, valid: Json): Array<{ kind: string; body: unknown }> {
  const s = deref(schema) as { properties?: Record<string, Json>; required?: string[]; additionalProperties?: unknown; type?: string };
  const out: Array<{ kind: string; body: unknown }> = [];
  if (s.type !== 'object' || !s.properties) return [{ kind: 'wrong type', body: [valid] }];
  for (const name of s.required ?? []) {
    const { [name]: _gone, ...rest } = valid;
    out.push({ kind: 'missing required', body: rest });
  }
  for (const [name, p] of Object.entries(s.properties)) {
    const type = p.type ?? (p.anyOf ? undefined : undefined);
    out.push({ kind: `wrong type: ${name}`, body: { ...valid, [name]: type === 'string' ? 12345 : type === 'array' ? 'not a list' : 'not this type' } });
    if (typeof p.maxLength === 'number') out.push({ kind: 'too long', body: { ...valid, [name]: 'a'.repeat(p.maxLength + 1) } });
    if (typeof p.minLength === 'number' && p.minLength > 0) out.push({ kind: 'too short', body: { ...valid, [name]: 'a'.repeat(p.minLength - 1) } });
    if (Array.isArray(p.enum)) out.push({ kind: 'bad enum', body: { ...valid, [name]: 'not-one-of-the-values' } });
    if (typeof p.pattern === 'string') out.push({ kind: 'bad pattern', body: { ...valid, [name]: 'bell \u0007 <"> character' } });
  }
  if (s.additionalProperties === false) out.push({ kind: 'extra property', body: { ...valid, notAField: true } });
  const check = validator(schema);
  return out.filter((m) => !check(m.body));
}

/**
 * Mutations of a valid query, each invalid for its parameter's schema: a number that is not one or is out of range, a
 * value outside the enum, too long, a control character where a pattern forbids it, a required parameter left out.
 */
function queryMutations(params: Json[], valid: Json): Array<{ kind: string; query: Json }> {
  const out: Array<{ kind: string; query: Json }> = [];
  for (const p of params) {
    const name = p.name as string;
    const schema = (deref(p.schema) ?? {}) as Json;
    const set = (kind: string, value: unknown) => out.push({ kind: `${kind}: ${name}`, query: { ...valid, [name]: value } });
    if (p.required) {
      const { [name]: _gone, ...rest } = valid;
      out.push({ kind: `missing required: ${name}`, query: rest });
    }
    if (schema.type === 'integer' || schema.type === 'number') {
      set('wrong type', 'not-a-number');
      // Numbers JavaScript reads but a query's integer is not: exponent, hexadecimal, surrounding space.
      if (schema.type === 'integer') for (const odd of ['1e1', '0x10', ' 5']) set(`not decimal digits (${JSON.stringify(odd)})`, odd);
      if (typeof schema.minimum === 'number') set('too small', schema.minimum - 1);
      if (typeof schema.maximum === 'number') set('too large', schema.maximum + 1);
    }
    if (Array.isArray(schema.enum)) set('bad enum', 'not-one-of-the-values');
    if (typeof schema.maxLength === 'number') set('too long', 'a'.repeat(schema.maxLength + 1));
    if (typeof schema.pattern === 'string') set('bad pattern', 'bell \u0007 character');
  }
  return out;
}

/** Path ids of records the test made first, by parameter name and path. */
const fixtures: Record<string, string> = {};

function fill(path: string, params: Json[] | undefined): string {
  return path.replace(/\{(\w+)\}/g, (_, name: string) => {
    const p = params?.find((x) => x.name === name && x.in === 'path');
    const key = `${path}:${name}`;
    return encodeURIComponent(fixtures[key] ?? fixtures[name] ?? String(p?.example ?? 'unknown'));
  });
}

interface Sent {
  status: number;
  type: string;
  body: unknown;
}

async function send(o: Operation, init: { query?: Json; body?: unknown; multipart?: FormData; gzip?: Buffer }): Promise<Sent> {
  const url = new URL(fill(o.path, o.op.parameters), server.url);
  for (const [k, v] of Object.entries(init.query ?? {})) url.searchParams.set(k, String(v));
  const headers: Record<string, string> = { origin: server.config.publicOrigin };
  if (JSON.stringify(o.op.security).includes('adminSession') && o.path !== '/api/admin/login') headers.cookie = cookie;
  if (JSON.stringify(o.op.security).includes('deployToken')) headers.authorization = `Bearer ${deployToken}`;
  if (JSON.stringify(o.op.security).includes('metricsToken')) headers.authorization = `Bearer ${METRICS_TOKEN}`;
  let body: string | FormData | Blob | undefined;
  if (init.multipart) body = init.multipart;
  else if (init.gzip) {
    body = new Blob([new Uint8Array(init.gzip)]) as unknown as FormData;
    headers['content-type'] = 'application/gzip';
  } else if (init.body !== undefined) {
    body = JSON.stringify(init.body);
    headers['content-type'] = 'application/json';
    if (o.path === '/api/webhook') headers['x-webhook-signature'] = signWebhookBody(WEBHOOK_SECRET, body, Math.floor(Date.now() / 1000));
  }
  const res = await fetch(url, { method: o.method.toUpperCase(), headers, body });
  const type = (res.headers.get('content-type') ?? '').split(';')[0]!.trim();
  const text = await res.text();
  let parsed: unknown = text;
  if (type === 'application/json' && text) parsed = JSON.parse(text);
  return { status: res.status, type, body: parsed };
}

const failures: Record<string, string[]> = { status: [], 'content type': [], 'response schema': [], 'valid refused': [], 'invalid accepted': [] };
let cases = 0;

/** The answer against the description: a documented status, its content type and its schema. */
function checkAnswer(o: Operation, label: string, got: Sent) {
  const documented = o.op.responses[String(got.status)] ?? o.op.responses[`${String(got.status)[0]}XX`];
  if (!documented) {
    failures.status!.push(`${label}: ${got.status} is not documented (${String(JSON.stringify(got.body)).slice(0, 200)})`);
    return;
  }
  const media = Object.keys(documented.content ?? {});
  if (media.length === 0) return;
  if (!media.includes(got.type)) {
    failures['content type']!.push(`${label}: ${got.status} answered ${got.type || '(none)'}, documented ${media.join(', ')}`);
    return;
  }
  const schema = documented.content![got.type]!.schema;
  if (got.type !== 'application/json') return;
  const check = validator(schema);
  if (!check(got.body)) failures['response schema']!.push(`${label}: ${got.status} ${ajv.errorsText(check.errors)} in ${String(JSON.stringify(got.body)).slice(0, 200)}`);
}

/**
 * The rules the description states in words because JSON Schema cannot (see each operation's description), applied to
 * a generated value; and the test's one deviation from the generator: outgoing webhooks go to its own loopback sink.
 */
function beyondTheSchema(o: Operation, body: Json) {
  if (o.path.startsWith('/api/admin/webhooks') && 'url' in body) body.url = sinkUrl;
  // The test's endpoint stays enabled for the test event and the redelivery sent later (a disabled one refuses them: state).
  if (o.path.startsWith('/api/admin/webhooks') && body.enabled === false) body.enabled = true;
  // publishAt: in the future and at most a year ahead.
  if (typeof body.publishAt === 'string') body.publishAt = new Date(Date.now() + 86_400_000).toISOString();
  // The HTML is sanitized before its length rule: generated text stays text (no tag for the sanitizer to drop).
  if (typeof body.content === 'string' && o.path !== '/api/admin/posts/preview') body.content = body.content.replaceAll('<', '&lt;');
  // storeImages fetches the image addresses, and this test has no outside world: the import would fail (a 400).
  if (body.storeImages === true) body.storeImages = false;
}

const statusClass = (o: Operation, status: number) => Object.keys(o.op.responses).includes(String(status));

beforeAll(async () => {
  sink = createServer((_req, res) => res.end('ok'));
  await new Promise<void>((resolve) => sink.listen(0, '127.0.0.1', resolve));
  sinkUrl = `http://127.0.0.1:${(sink.address() as AddressInfo).port}/hook`;
  server = await startTestServer({
    // The webhook sink listens on 127.0.0.1: a private target, sent to only when allowed.
    env: { ...ADMIN_ENV, WEBHOOK_SECRET, METRICS_TOKEN, RATE_LIMIT_MULTIPLIER: '100000', WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' },
    // No DNS, no outside network: every website, image and webhook host name "does not resolve".
    deps: {
      analysis: { website: { resolver: async () => Promise.reject(new Error('NXDOMAIN')), timeoutMs: 2000 } },
      webhookResolver: async () => Promise.reject(new Error('NXDOMAIN')),
    },
  });
  doc = (await (await fetch(`${server.url}/api/openapi.json`)).json()) as typeof doc;
  cookie = await adminCookie(server);
  const admin = (path: string, method: string, body?: unknown) =>
    fetch(`${server.url}${path}`, {
      method,
      headers: { cookie, origin: server.config.publicOrigin, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    }).then(async (r) => ({ status: r.status, body: (await r.json()) as Json }));
  // Records for the path ids: a post with revisions, a contact message, a webhook endpoint with a delivery, an image.
  const post = await admin('/api/admin/posts', 'POST', {
    title: 'Contract test post',
    excerpt: 'An excerpt long enough for the rules.',
    content: `<p>${'Content of the contract test post. '.repeat(5)}</p>`,
    author: 'Contract Test',
    category: 'How-To Guides',
    metaDescription: 'A meta description that is long enough to pass the fifty character rule.',
  });
  fixtures.id = String(post.body.id);
  fixtures.slug = String(post.body.slug);
  const revisions = await admin(`/api/admin/posts/${fixtures.id}/revisions`, 'GET');
  fixtures.revisionId = String((revisions.body.revisions as Json[])[0]!.id);
  await fetch(`${server.url}/api/contact`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ name: 'Ada', email: 'ada@example.com', message: 'A message from the contract test.' }) });
  const leads = await admin('/api/admin/leads', 'GET');
  fixtures['/api/admin/leads/{id}:id'] = String((leads.body.leads as Json[])[0]!.id);
  const endpoint = await admin('/api/admin/webhooks', 'POST', { url: sinkUrl, events: ['post.published'] });
  for (const p of ['/api/admin/webhooks/{id}', '/api/admin/webhooks/{id}/test', '/api/admin/webhooks/{id}/deliveries', '/api/admin/webhooks/{id}/deliveries/{deliveryId}/attempts', '/api/admin/webhooks/{id}/deliveries/{deliveryId}/redeliver'])
    fixtures[`${p}:id`] = String(endpoint.body.id);
  const delivery = await admin(`/api/admin/webhooks/${String(endpoint.body.id)}/test`, 'POST');
  fixtures.deliveryId = String(delivery.body.id);
  const form = new FormData();
  form.set('file', new Blob([new Uint8Array(await picture(64, 48))], { type: 'image/png' }), 'fixture.png');
  const media = (await (await fetch(`${server.url}/api/admin/media`, { method: 'POST', headers: { cookie, origin: server.config.publicOrigin }, body: form })).json()) as Json;
  for (const p of ['/api/admin/media/{id}']) fixtures[`${p}:id`] = String(media.id);
  fixtures.file = String(media.url).split('/').pop()!;
  fixtures['/api/analyses/{id}:id'] = 'Xk3v9QpL2mNa';
  deployToken = String((await admin('/api/admin/deploy-tokens', 'POST', { name: 'contract test', apps: ['shell', 'marketing', 'analysis', 'blog', 'admin'] })).body.token);
}, 60_000);

afterAll(async () => {
  await server?.close();
  await new Promise((resolve) => sink?.close(resolve));
});

it('every operation: valid requests succeed, mutated ones are refused as documented, every answer matches the description', async () => {
  const operations: Operation[] = Object.entries(doc.paths).flatMap(([path, item]) => Object.entries(item).map(([method, op]) => ({ method, path, op })));
  // Deleting and logging out last, so the records and the session serve every other operation first.
  const rank = (o: Operation) => (o.path === '/api/admin/logout' ? 2 : o.method === 'delete' ? 1 : 0);
  operations.sort((a, b) => rank(a) - rank(b));
  let seed = SEED;
  for (const o of operations) {
    const label = `${o.method.toUpperCase()} ${o.path}`;
    const queryParams = (o.op.parameters ?? []).filter((p) => p.in === 'query');
    const querySchema: Json = {
      type: 'object',
      properties: Object.fromEntries(queryParams.map((p) => [p.name, p.schema])),
      required: queryParams.filter((p) => p.required).map((p) => p.name),
    };
    // `cursor` is opaque: only values the server issued are valid, so the generated requests leave it out.
    delete (querySchema.properties as Json).cursor;
    const media = Object.keys(o.op.requestBody?.content ?? {})[0];
    const bodySchema = media ? o.op.requestBody!.content[media]!.schema : undefined;
    for (let round = 0; round < 3; round++) {
      seed += 1;
      const query = queryParams.length ? (validValue(querySchema, seed) as Json) : undefined;
      let got: Sent;
      let body: unknown;
      if (media === 'multipart/form-data') {
        const form = new FormData();
        form.set('file', new Blob([new Uint8Array(await picture(40 + round, 30))], { type: 'image/png' }), `upload-${round}.png`);
        form.set('alt', `Alt text ${round}`);
        got = await send(o, { query, multipart: form });
      } else if (media === 'application/gzip') {
        // A release's archive: a whole blog build (its name from the generated query, else its manifest's, made unique).
        got = await send(o, { query, gzip: await packReleaseTarball(blogRelease(round)) });
      } else {
        body = bodySchema ? validValue(bodySchema, seed) : undefined;
        if (body && typeof body === 'object') beyondTheSchema(o, body as Json);
        got = await send(o, { query, body });
      }
      cases += 1;
      checkAnswer(o, label, got);
      const ok = got.status >= 200 && got.status < 300;
      // State, not shape: an id that does not exist, a conflict, and the login's password (a secret no schema holds).
      const state = got.status === 404 || got.status === 409 || (o.path === '/api/admin/login' && got.status === 401);
      if (o.path === '/api/admin/logout' && ok) cookie = await adminCookie(server);
      if (!ok && !(state && statusClass(o, got.status)))
        failures['valid refused']!.push(`${label}: ${got.status} for ${String(JSON.stringify(body ?? query)).slice(0, 200)}: ${String(JSON.stringify(got.body)).slice(0, 300)}`);
    }
    if (media === 'application/json' && bodySchema) {
      const base = validValue(bodySchema, SEED) as Json;
      if (typeof base === 'object' && base !== null) beyondTheSchema(o, base);
      for (const m of mutations(bodySchema, base)) {
        const got = await send(o, { body: m.body });
        cases += 1;
        checkAnswer(o, `${label} (${m.kind})`, got);
        if (!(got.status >= 400 && got.status < 500 && statusClass(o, got.status)))
          failures['invalid accepted']!.push(`${label} (${m.kind}): ${got.status} for ${JSON.stringify(m.body).slice(0, 200)}`);
      }
    }
    if (queryParams.length) {
      const base = validValue(querySchema, SEED) as Json;
      for (const m of queryMutations(queryParams.filter((p) => p.name !== 'cursor'), base)) {
        const got = await send(o, { query: m.query, ...(media === 'application/json' && bodySchema ? { body: validValue(bodySchema, SEED) } : {}) });
        cases += 1;
        checkAnswer(o, `${label} (query ${m.kind})`, got);
        if (!(got.status >= 400 && got.status < 500 && statusClass(o, got.status)))
          failures['invalid accepted']!.push(`${label} (query ${m.kind}): ${got.status} for ${JSON.stringify(m.query).slice(0, 200)}`);
      }
    }
    if (media === 'multipart/form-data') {
      const got = await send(o, { multipart: new FormData() });
      cases += 1;
      checkAnswer(o, `${label} (missing required)`, got);
      if (got.status !== 400) failures['invalid accepted']!.push(`${label} (missing required): ${got.status}`);
    }
  }
  const counts = Object.fromEntries(Object.entries(failures).map(([k, v]) => [k, v.length]));
  console.log(`OpenAPI contract: ${operations.length} operations, ${cases} cases, failures by check: ${JSON.stringify(counts)}`);
  expect(failures).toEqual({ status: [], 'content type': [], 'response schema': [], 'valid refused': [], 'invalid accepted': [] });
}, 120_000);
