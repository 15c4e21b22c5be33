import http from 'node:http';
import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorEnvelopeSchema } from '@site/contracts/error';
import { TRACKING_EVENTS } from '@site/contracts/events';
import { ADMIN_SECTIONS, ALERT_TYPES } from '@site/contracts/admin';
import { hashPassword } from '../admin/password';
import { signWebhookBody } from '../incoming-webhook/incoming-webhook-service';
import { uniqueSchema } from '../test-support/databases';
import { startTestServer, type TestServer } from '../test-support/test-server';

/*
 * Fuzz every route of the API router (issue 15): body, query, path parameters and headers, with and without an admin
 * session, webhook deliveries signed and not. Invariants a caller relies on:
 * - never a 5xx; every /api 4xx is the JSON error envelope;
 * - no stack trace or file path in any answer;
 * - the process keeps answering.
 * FUZZ_RUNS cases per route: 100 by default, sized for `npm test` on a 2-core machine (about 16 s for 70 routes; a new
 * seed each run, so runs add up); `FUZZ_RUNS=10000` for a deep run.
 */

const RUNS = Number(process.env.FUZZ_RUNS ?? 100);
const SEED = process.env.FUZZ_SEED ? Number(process.env.FUZZ_SEED) : undefined;
/** Routes fuzzed at the same time (FUZZ_CONCURRENCY, default 3); 1 replays a failure in order. */
const CONCURRENCY = Math.max(1, Number(process.env.FUZZ_CONCURRENCY ?? 3));
const SECRET = 'fuzz-webhook-secret';
const PASSWORD = 'fuzz admin password';
const ORIGIN = 'https://example.test';
/** What must never reach a caller: stack frames, source or install paths. */
const LEAK = /\bat [\w$.<>]+ \(|\bat (?:file:|\/)\S*:\d+:\d+|node_modules|\/work\/|\/src\/[\w/-]+\.[jt]s|\.ts:\d+|file:\/\/|\/tmp\/|Error: .*\n\s+at /;

// ------------------------------------------------------------------------------------------------------------------
// Values
// ------------------------------------------------------------------------------------------------------------------

const NASTY = [
  '', ' ', '__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty', '\u0000', 'a\u0000b', '\u202e', '\u2066x',
  '\ud800', 'x\udfff', '\ud83d\ude00', '\u0007', '\r\n', '\t', '<script>alert(1)</script>', '"><img src=x onerror=alert(1)>',
  "' OR 1=1 --", '; DROP TABLE posts; --', '../../../etc/passwd', '..%2f..%2fetc%2fpasswd', '%00', '%ZZ', '%', '\\',
  'null', 'undefined', 'NaN', '-1', '0', '1e309', '9'.repeat(40), 'a'.repeat(5000), 'https://example.com', 'http://127.0.0.1:1/',
  'javascript:alert(1)', 'data:text/html,x', '//evil.example', '/api/health', 'Danville, CA', 'Restaurant', 'published', 'draft',
];

/** Strings with every kind of character: full unicode, lone surrogates, controls, and the nasty list. */
const loneSurrogate = fc.integer({ min: 0xd800, max: 0xdfff }).map((c) => String.fromCharCode(c));
const control = fc.integer({ min: 0, max: 0x1f }).map((c) => String.fromCharCode(c));
const weirdString = fc.oneof(
  { weight: 3, arbitrary: fc.string({ maxLength: 40 }) },
  { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 40 }) },
  { weight: 2, arbitrary: fc.constantFrom(...NASTY) },
  { weight: 1, arbitrary: fc.string({ unit: fc.oneof(fc.string({ minLength: 1, maxLength: 1 }), loneSurrogate, control), maxLength: 30 }) },
  { weight: 1, arbitrary: fc.string({ minLength: 200, maxLength: 3000 }) },
);
const anyValue: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 4, arbitrary: weirdString },
  { weight: 1, arbitrary: fc.oneof(fc.integer(), fc.double({ noNaN: true, noDefaultInfinity: true }), fc.boolean(), fc.constant(null)) },
  { weight: 1, arbitrary: fc.array(weirdString, { maxLength: 5 }) },
  { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 3 }) },
  { weight: 1, arbitrary: fc.dictionary(weirdString, weirdString, { maxKeys: 4 }) },
);
/** A field: usually a plausible value (to get past the first checks), often anything at all. */
const field = (valid: fc.Arbitrary<unknown>) => fc.oneof({ weight: 6, arbitrary: valid }, { weight: 1, arbitrary: anyValue });
const words = (min: number, max: number) => fc.string({ minLength: min, maxLength: max });

const POST_FIELDS = {
  title: field(words(5, 80)),
  excerpt: field(words(20, 200)),
  content: field(fc.constantFrom(`<p>${'Plain words of a post body. '.repeat(5)}</p>`, `<h2>x</h2><script>alert(1)</script>${'y'.repeat(120)}`)),
  author: field(words(2, 40)),
  category: field(fc.constantFrom('AI Automation', 'Case Studies', 'How-To Guides', '__proto__')),
  metaDescription: field(words(50, 160)),
  keywords: field(fc.array(words(1, 20), { maxLength: 5 })),
  featuredImage: field(fc.constantFrom('https://cdn.example/a.png', '/mfe/blog/placeholder.svg', '')),
  ogImage: field(fc.constantFrom('https://cdn.example/og.jpg', '/x.png')),
  status: field(fc.constantFrom('draft', 'published', 'archived')),
};

/** Known body fields per route (method + path); other routes get arbitrary JSON. */
const BODY_FIELDS: Record<string, Record<string, fc.Arbitrary<unknown>>> = {
  'POST /api/contact': {
    name: field(words(1, 40)),
    email: field(fc.oneof(fc.constantFrom('ada@example.com', 'o.brien+x@mail.example.org'), fc.emailAddress())),
    company: field(words(0, 40)),
    subject: field(words(0, 40)),
    message: field(words(10, 300)),
    website: field(fc.constantFrom('', 'http://bot.example')),
  },
  'POST /api/events': {
    name: field(fc.constantFrom(...TRACKING_EVENTS)),
    path: field(fc.constantFrom('/', '/blog', '/free-analysis')),
    props: field(fc.dictionary(words(1, 10), fc.oneof(words(0, 20), fc.integer(), fc.boolean(), fc.constant(null)), { maxKeys: 3 })),
    at: field(fc.date({ noInvalidDate: true, min: new Date(0), max: new Date(4e12) }).map((d) => d.toISOString())),
  },
  'POST /api/webhook': POST_FIELDS,
  'POST /api/analyze-smb-business': {
    businessName: field(words(1, 60)),
    businessType: field(fc.constantFrom('Restaurant', 'Retail', 'Healthcare', 'Service', 'constructor', '__proto__')),
    location: field(fc.constantFrom('Danville, CA', 'Pleasanton, CA', 'constructor', '__proto__, CA', '')),
    website: field(fc.constantFrom('example.com', 'https://bistro.example/', 'http://10.0.0.1/', '')),
  },
  'POST /api/analyze-website': {
    url: field(fc.constantFrom('example.com', 'https://shop.example/', 'http://169.254.169.254/latest', 'ftp://x.example')),
    mode: field(fc.constantFrom('quick', 'full', 'restaurant')),
    location: field(fc.constantFrom('Danville, CA', '')),
  },
  'POST /api/admin/login': { password: field(fc.constantFrom(PASSWORD, 'wrong password')) },
  'PUT /api/admin/session': { activeSection: field(fc.constantFrom(...ADMIN_SECTIONS)) },
  'POST /api/admin/posts': POST_FIELDS,
  'PUT /api/admin/posts/:id': { ...POST_FIELDS, expectedUpdatedAt: field(fc.constantFrom(new Date().toISOString())) },
  'PATCH /api/admin/leads/:id': { read: field(fc.boolean()), handled: field(fc.boolean()) },
  'PATCH /api/admin/alerts/settings/:type': {
    enabled: field(fc.boolean()),
    email: field(fc.boolean()),
    threshold: field(fc.integer({ min: -10, max: 200 })),
  },
};

const QUERY_KEYS = ['q', 'category', 'limit', 'cursor', 'page', 'status', 'filter', 'type', '__proto__', 'constructor'];
const PARAM_VALUES: Record<string, fc.Arbitrary<string>> = {
  type: fc.constantFrom(...ALERT_TYPES),
  slug: fc.constantFrom('how-ai-chatbots-are-transforming-customer-service-for-local-businesses', 'no-such-post'),
};

// ------------------------------------------------------------------------------------------------------------------
// Requests
// ------------------------------------------------------------------------------------------------------------------

interface FuzzRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  body: Buffer | undefined;
}

interface Answer {
  status: number;
  contentType: string;
  body: string;
}

const agent = new http.Agent({ keepAlive: true, maxSockets: 4 });

function send(base: string, req: FuzzRequest): Promise<Answer> {
  const url = new URL(base);
  return new Promise((resolve, reject) => {
    const r = http.request(
      { host: url.hostname, port: url.port, method: req.method, path: req.path, headers: req.headers, agent, timeout: 15_000 },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, contentType: String(res.headers['content-type'] ?? ''), body: Buffer.concat(chunks).toString('utf8') }),
        );
        res.on('error', reject);
      },
    );
    r.on('timeout', () => r.destroy(new Error(`no answer within 15 s: ${req.method} ${req.path}`)));
    r.on('error', reject);
    r.end(req.body);
  });
}

/** Header values Node will send: printable latin-1, no CR/LF. */
const headerValue = fc.oneof(
  fc.constantFrom('', 'x', '*/*', 'null', '__proto__', '1.2.3.4', 'a'.repeat(300)),
  fc.string({ unit: fc.integer({ min: 0x20, max: 0xff }).filter((c) => c !== 0x7f).map((c) => String.fromCharCode(c)), maxLength: 40 }),
);

const encodeSegment = (s: string) => {
  try {
    return encodeURIComponent(s);
  } catch {
    return '%ED%A0%80'; // a lone surrogate as UTF-8 bytes (invalid UTF-8)
  }
};

function routeArbitrary(
  method: string,
  routePath: string,
  ctx: { sessionCookie: () => Promise<string>; idOf: (name: string) => string },
): fc.Arbitrary<() => Promise<FuzzRequest>> {
  const known = BODY_FIELDS[`${method} ${routePath}`];
  const bodyValue: fc.Arbitrary<unknown> = known
    ? fc.oneof(
        { weight: 5, arbitrary: fc.record(known, { requiredKeys: [] }).chain((o) => fc.dictionary(weirdString, anyValue, { maxKeys: 2 }).map((extra) => ({ ...extra, ...o }))) },
        { weight: 1, arbitrary: anyValue },
      )
    : anyValue;
  const paramNames = [...routePath.matchAll(/:(\w+)/g)].map((m) => m[1]!);
  const params = fc.tuple(
    ...paramNames.map((name) =>
      fc.oneof(
        { weight: 2, arbitrary: fc.constant<string | null>(null) }, // a real id of that kind, when one exists
        { weight: 1, arbitrary: PARAM_VALUES[name] ?? fc.constantFrom('1', 'abc') },
        { weight: 2, arbitrary: weirdString.filter((s) => s.length > 0) },
      ),
    ),
  );
  const query = fc.array(fc.tuple(fc.oneof(fc.constantFrom(...QUERY_KEYS), weirdString), fc.oneof(weirdString, fc.integer().map(String))), {
    maxLength: 4,
  });
  const bodyForm = fc.constantFrom('json', 'json', 'json', 'json', 'raw', 'gzip', 'corrupt-gzip', 'br', 'deflate', 'none', 'text/plain', 'form');
  const extraHeaders = fc.dictionary(
    fc.constantFrom('accept', 'accept-encoding', 'if-none-match', 'range', 'x-forwarded-for', 'x-forwarded-proto', 'user-agent', 'referer', 'content-language', 'expect-ct'),
    headerValue,
    { maxKeys: 3 },
  );
  const session = fc.constantFrom('valid', 'valid', 'none', 'garbage');
  const origin = fc.oneof({ weight: 6, arbitrary: fc.constant(ORIGIN) }, { weight: 1, arbitrary: fc.constantFrom(null, 'https://evil.example', 'null') });
  const signature = fc.constantFrom('valid', 'valid', 'valid', 'none', 'garbage', 'old', 'other-secret');
  const idempotencyKey = fc.option(headerValue, { nil: undefined });
  const rawText = fc.oneof(weirdString, fc.constantFrom('{', '[1,', '{"a":', '\u0000', '[' .repeat(100) + ']'.repeat(100)));

  return fc
    .record({ bodyValue, params, query, bodyForm, extraHeaders, session, origin, signature, idempotencyKey, rawText })
    .map((c) => async () => {
      let path = routePath;
      paramNames.forEach((name, i) => {
        const v = c.params[i];
        path = path.replace(`:${name}`, v === null ? encodeSegment(ctx.idOf(name)) : encodeSegment(v));
      });
      if (c.query.length) path += '?' + c.query.map(([k, v]) => `${encodeSegment(k)}=${encodeSegment(v)}`).join('&');

      const headers: Record<string, string> = { ...c.extraHeaders };
      if (c.origin) headers.origin = c.origin;
      if (routePath.startsWith('/api/admin/')) {
        if (c.session === 'valid') headers.cookie = `admin_session=${await ctx.sessionCookie()}`;
        else if (c.session === 'garbage') headers.cookie = 'admin_session=not-a-session; other=1';
      }
      let body: Buffer | undefined;
      if (method !== 'GET' && method !== 'DELETE' && c.bodyForm !== 'none') {
        const text = c.bodyForm === 'raw' ? c.rawText : JSON.stringify(c.bodyValue) ?? 'null';
        const bytes = Buffer.from(text, 'utf8');
        headers['content-type'] = c.bodyForm === 'text/plain' ? 'text/plain' : c.bodyForm === 'form' ? 'application/x-www-form-urlencoded' : 'application/json';
        const encoders: Partial<Record<string, (data: Buffer) => Buffer>> = { gzip: gzipSync, br: brotliCompressSync, deflate: deflateSync };
        const encoded = encoders[c.bodyForm];
        body = encoded ? encoded(bytes) : bytes;
        if (encoded) headers['content-encoding'] = c.bodyForm;
        // Declared gzip, sent plain: must be a 400, never a 500.
        if (c.bodyForm === 'corrupt-gzip') headers['content-encoding'] = 'gzip';
        if (routePath === '/api/webhook') {
          const t = Math.floor(Date.now() / 1000);
          if (c.signature === 'valid') headers['x-webhook-signature'] = signWebhookBody(SECRET, text, t);
          else if (c.signature === 'old') headers['x-webhook-signature'] = signWebhookBody(SECRET, text, t - 3600);
          else if (c.signature === 'other-secret') headers['x-webhook-signature'] = signWebhookBody('nope', text, t);
          else if (c.signature === 'garbage') headers['x-webhook-signature'] = `t=${t},v1=${'z'.repeat(64)}`;
          if (c.idempotencyKey !== undefined) headers['idempotency-key'] = c.idempotencyKey;
        }
      }
      return { method, path, headers, body };
    });
}

function checkAnswer(req: FuzzRequest, res: Answer): void {
  const what = `${req.method} ${req.path} -> ${res.status} ${res.body.slice(0, 300)}`;
  expect(res.status, what).toBeLessThan(500);
  // The deploy tool the site serves is a program: its module names are public, not a leak.
  const program = req.path.split('?')[0] === '/site-deploy.mjs' && res.status === 200;
  if (!program) expect(res.body, what).not.toMatch(LEAK);
  if (req.path.startsWith('/api') && res.status >= 400) {
    expect(res.contentType, what).toMatch(/^application\/json/);
    expect(errorEnvelopeSchema.safeParse(JSON.parse(res.body)).success, what).toBe(true);
  }
}

// ------------------------------------------------------------------------------------------------------------------

const backend = process.env.TEST_DATABASE_URL ? 'postgres' : 'sqlite';

describe(`fuzz: every API route (${backend}, ${RUNS} cases each)`, () => {
  let server: TestServer;
  const schema = uniqueSchema();
  let token = '';
  const ids: Record<string, string> = {};
  const timings: Array<{ route: string; ms: number; statuses: Record<number, number> }> = [];
  let elapsed = 0;

  beforeAll(async () => {
    server = await startTestServer({
      env: {
        WEBHOOK_SECRET: SECRET,
        // A cheap scrypt cost: the fuzz logs in often; the production default is tested elsewhere.
        ADMIN_PASSWORD_HASH: await hashPassword(PASSWORD, { N: 2 ** 10, r: 8, p: 1 }),
        RATE_LIMIT_MULTIPLIER: '1000000',
        ...(backend === 'postgres' ? { DATABASE_URL: process.env.TEST_DATABASE_URL } : {}),
      },
      deps: {
        // Every host name resolves to a private address: the analyzer refuses it, so nothing leaves the machine.
        analysis: { website: { resolver: async () => [{ address: '10.0.0.1', family: 4 }], timeoutMs: 500 } },
        ...(backend === 'postgres' ? { database: { pgSchema: schema } } : {}),
      },
    });
    token = (await server.instance.services.admin.auth.login(PASSWORD, '127.0.0.1')).token;
    const posts = await server.instance.services.posts.listAll();
    ids.id = posts[0]!.id;
    ids.slug = posts[0]!.slug;
  });
  afterAll(async () => {
    agent.destroy();
    console.log(
      `fuzz (${backend}): ${timings.length} routes x ${RUNS} cases = ${timings.length * RUNS} requests in ${Math.round(elapsed / 1000)} s (${CONCURRENCY} routes at a time)\n` +
        timings.map((t) => `  ${t.route.padEnd(42)} ${String(Math.round(t.ms)).padStart(6)} ms  ${JSON.stringify(t.statuses)}`).join('\n'),
    );
    await server.close();
  });

  it('enumerates the router: every route is fuzzed', () => {
    const routes = server.instance.router.stack.flatMap((layer) => layer.methods.filter((m) => m !== 'HEAD').map((m) => `${m} ${layer.path}`));
    expect(routes.length).toBeGreaterThanOrEqual(30);
    expect(routes).toEqual(expect.arrayContaining(['POST /api/webhook', 'POST /api/contact', 'GET /api/admin/posts', 'POST /api/admin/logout']));
  });

  it('no 5xx, the error envelope on every /api 4xx, no stack or path in any answer, and the process keeps answering', async () => {
    const routes = server.instance.router.stack.flatMap((layer) =>
      layer.methods.filter((m) => m !== 'HEAD').map((method) => ({ method, path: String(layer.path) })),
    );
    const sessionCookie = async () => {
      // A logout case ends the shared session: start a new one when it is gone.
      if (!(await server.instance.services.admin.auth.authenticate(token))) {
        token = (await server.instance.services.admin.auth.login(PASSWORD, '127.0.0.1')).token;
      }
      return token;
    };
    // A few routes at a time: the server waits on its database more than on the CPU, so overlapping them shortens the run.
    const queue = [...routes];
    const worker = async () => {
      for (let route = queue.shift(); route; route = queue.shift()) {
        try {
          await fuzzRoute(route);
        } catch (failure) {
          queue.length = 0; // the other workers stop after their current route
          throw failure;
        }
      }
    };
    const fuzzRoute = async (route: { method: string; path: string }) => {
      const started = performance.now();
      const statuses: Record<number, number> = {};
      await fc.assert(
        fc.asyncProperty(routeArbitrary(route.method, route.path, { sessionCookie, idOf: (name) => ids[name] ?? 'x' }), async (make) => {
          const req = await make();
          const res = await send(server.url, req);
          statuses[res.status] = (statuses[res.status] ?? 0) + 1;
          checkAnswer(req, res);
        }),
        { numRuns: RUNS, seed: SEED, endOnFailure: true },
      );
      timings.push({ route: `${route.method} ${route.path}`, ms: performance.now() - started, statuses });
    };
    const runStarted = performance.now();
    await Promise.all(Array.from({ length: CONCURRENCY }, worker));
    elapsed = performance.now() - runStarted;
    const health = await send(server.url, { method: 'GET', path: '/api/health', headers: {}, body: undefined });
    expect(health.status).toBe(200);
  }, 30 * 60_000);
});
