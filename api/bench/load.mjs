// Load benchmark of the built server over loopback (`npx pnpm@10.34.9 --filter api build` first, and the shell and
// remotes built for the HTML pages): `node api/bench/load.mjs [--duration 60] [--connections 200] [--warmup 30]`.
//
// Starts `node api/dist/server.js` on a fresh SQLite DATA_DIR (or DATABASE_URL when you set it) with
// RATE_LIMIT_MULTIPLIER raised, warms it up, then drives it with autocannon: every connection cycles through a mix of
// HTML pages, GET /api/posts, POST /api/contact and signed POST /api/webhook (a new post each). It prints throughput,
// latency p50/p99, errors and non-2xx answers, the server's resident memory (rss) at start, after warm-up and at the
// end (the warm-up is 30 s: after 10 s the heap is still filling to its working size, and a 60 s run then showed
// 15-20% "growth" that was gone with 30 s), and counts the stored rows afterwards through the API: every write answered 2xx must be there (0 lost). Then
// the same connections and duration against a bare Koa route in another process, side by side. Bounded: the run
// stops after --duration seconds; nothing leaves loopback.
import { spawn } from 'node:child_process';
import { createHmac } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const require = createRequire(import.meta.url);
const autocannon = require('autocannon');

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '../..');
const { values: args } = parseArgs({
  options: {
    duration: { type: 'string', default: '60' },
    connections: { type: 'string', default: '200' },
    warmup: { type: 'string', default: '30' },
    // --no-pages: the API requests only (to tell the cost of server-rendered pages from the API's).
    pages: { type: 'boolean', default: true },
    // --profile <dir>: the server writes a V8 CPU profile there when it exits (open it in Chrome DevTools).
    profile: { type: 'string' },
  },
  allowNegative: true,
});
const DURATION = Number(args.duration);
const CONNECTIONS = Number(args.connections);
const WARMUP = Number(args.warmup);
if (![DURATION, CONNECTIONS, WARMUP].every((n) => Number.isFinite(n) && n > 0) || DURATION > 600 || CONNECTIONS > 1000) {
  console.error('Usage: node api/bench/load.mjs [--duration 1-600 s] [--connections 1-1000] [--warmup s] [--no-pages]');
  process.exit(2);
}

const SECRET = 'load-bench webhook secret';
const PASSWORD = 'load-bench admin password';
const ORIGIN = 'http://127.0.0.1';

function startProcess(args, env, cwd = root) {
  const child = spawn(process.execPath, args, { cwd, env: { PATH: process.env.PATH, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout.setEncoding('utf8').on('data', (c) => (out += c));
  child.stderr.setEncoding('utf8').on('data', (c) => (out += c));
  const url = new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`did not start in 20 s:\n${out}`)), 20_000);
    child.stdout.on('data', () => {
      const m = /(?:Site running at|bare koa at) http:\/\/(?:localhost|127\.0\.0\.1):(\d+)/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve(`http://127.0.0.1:${m[1]}`);
      }
    });
    child.once('exit', (code) => reject(new Error(`exited ${code}:\n${out}`)));
  });
  return { child, url, output: () => out };
}

async function rssMb(pid) {
  const status = await readFile(`/proc/${pid}/status`, 'utf8').catch(() => '');
  const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? NaN);
  return kb / 1024;
}

async function api(url, p, init = {}) {
  const res = await fetch(`${url}${p}`, { ...init, headers: { origin: ORIGIN, 'content-type': 'application/json', ...init.headers } });
  return { status: res.status, headers: res.headers, json: await res.json().catch(() => undefined) };
}

const sign = (body) => {
  const t = Math.floor(Date.now() / 1000);
  return `t=${t},v1=${createHmac('sha256', SECRET).update(`${t}.${body}`).digest('hex')}`;
};

/** Client-side errors by kind (timeout, reset, …), over every run of our server. */
const errorKinds = new Map();

function run(opts) {
  return new Promise((resolve, reject) => {
    const instance = autocannon(opts, (err, result) => (err ? reject(err) : resolve(result)));
    instance.on('reqError', (err) => {
      const kind = err?.code ?? err?.message ?? String(err);
      errorKinds.set(kind, (errorKinds.get(kind) ?? 0) + 1);
    });
    autocannon.track(instance, { renderProgressBar: false, renderResultsTable: false, renderLatencyTable: false });
  });
}

// ---------------------------------------------------------------------------------------------------- our server
const dataDir = await mkdtemp(path.join(tmpdir(), 'load-bench-'));
const siteBuilt = existsSync(path.join(root, 'shell/dist/index.html'));
const server = startProcess([...(args.profile ? ['--cpu-prof', '--cpu-prof-dir', path.resolve(args.profile)] : []), path.join(root, 'api/dist/server.js')], {
  PORT: '0',
  HOST: '127.0.0.1',
  DATA_DIR: dataDir,
  DATABASE_URL: process.env.DATABASE_URL ?? '',
  REDIS_URL: process.env.REDIS_URL ?? '',
  LOG_LEVEL: 'warn',
  RATE_LIMIT_MULTIPLIER: '1000000',
  WEBHOOK_SECRET: SECRET,
  ADMIN_PASSWORD: PASSWORD,
  PUBLIC_ORIGIN: ORIGIN,
  NODE_ENV: 'production',
});
const bare = startProcess(
  [
    '--input-type=module',
    '-e',
    `import Koa from 'koa';
     const app = new Koa();
     app.use((ctx) => { ctx.body = { ok: true }; });
     const s = app.listen(0, '127.0.0.1', () => console.log('bare koa at http://127.0.0.1:' + s.address().port));`,
  ],
  {},
  // From api/, so 'koa' resolves to the API's own dependency (the same Koa the server runs).
  path.join(root, 'api'),
);

let exitCode = 0;
try {
  const url = await server.url;
  const pid = server.child.pid;
  const seeded = (await api(url, '/api/posts?limit=1')).json;
  const firstSlug = seeded.posts[0]?.slug;
  const pages = siteBuilt && args.pages ? ['/', '/blog', ...(firstSlug ? [`/blog/${firstSlug}`] : []), '/free-analysis'] : [];

  // What the server acknowledged (2xx), by identity: the visitor names and the post slugs. A connection sends one
  // request at a time, so its context holds the write whose answer arrives next.
  let seq = 0;
  const acknowledged = { contact: new Set(), webhook: new Set() };
  // Answers by request and status, to say which request a non-2xx came from.
  const tally = new Map();
  const count = (name, status) => tally.set(`${name} ${status}`, (tally.get(`${name} ${status}`) ?? 0) + 1);
  // Latency by request, and which request a connection was waiting on when its answer never came (a connection sends
  // one request at a time, so its context knows).
  const latencies = new Map();
  const pagesRendered = { server: 0, browser: 0 };
  const unanswered = new Map();
  const counted = (r) => {
    const name = `${r.method} ${r.path}`;
    const inner = r.onResponse;
    const setup = r.setupRequest;
    return {
      ...r,
      setupRequest: (req, context) => {
        if (context.pending) unanswered.set(context.pending, (unanswered.get(context.pending) ?? 0) + 1);
        context.pending = name;
        context.started = performance.now();
        return setup ? setup(req, context) : req;
      },
      onResponse: (status, body, context, headers) => {
        context.pending = undefined;
        // An HTML page the server did not render (its render waited past SSR_QUEUE_MS): rendered in the browser.
        if (r.method === 'GET' && !r.path.startsWith('/api/')) {
          if (typeof body === 'string' && body.includes('<div id="root" data-ssr')) pagesRendered.server += 1;
          else pagesRendered.browser += 1;
        }
        const list = latencies.get(name) ?? [];
        list.push(performance.now() - context.started);
        latencies.set(name, list);
        count(name, status);
        inner?.(status, body, context, headers);
      },
    };
  };
  const requests = [
    ...pages.map((p) => ({ method: 'GET', path: p })),
    { method: 'GET', path: '/api/posts' },
    {
      method: 'POST',
      path: '/api/contact',
      headers: { 'content-type': 'application/json', origin: ORIGIN },
      setupRequest: (req, context) => {
        const n = (seq += 1);
        context.contact = `Load Visitor ${n}`;
        return { ...req, body: JSON.stringify({ name: `Load Visitor ${n}`, email: `load${n}@example.com`, message: `Load test message number ${n} about automating reminders.` }) };
      },
      onResponse: (status, _body, context) => {
        if (status >= 200 && status < 300) acknowledged.contact.add(context.contact);
      },
    },
    {
      method: 'POST',
      path: '/api/webhook',
      setupRequest: (req) => {
        const n = (seq += 1);
        const body = JSON.stringify({
          title: `Load test post ${n}`,
          excerpt: `A post written by the load benchmark, number ${n}.`,
          content: `<p>${'The load benchmark writes this paragraph to fill the post. '.repeat(3)}</p>`,
          author: 'Load Bench',
          category: 'Load Testing',
          metaDescription: `Post number ${n} written by the load benchmark to count stored rows.`,
          status: 'published',
        });
        return { ...req, body, headers: { 'content-type': 'application/json', 'x-webhook-signature': sign(body), 'idempotency-key': `load-${n}` } };
      },
      onResponse: (status, body) => {
        if (status >= 200 && status < 300) acknowledged.webhook.add(JSON.parse(body).slug);
      },
    },
  ];

  requests.splice(0, requests.length, ...requests.map(counted));
  const memStart = await rssMb(pid);
  console.log(`warm-up: ${WARMUP} s, ${CONNECTIONS} connections${siteBuilt ? '' : ' (no shell build: HTML pages left out)'}`);
  const warm = await run({ url, connections: CONNECTIONS, duration: WARMUP, requests });
  const memWarm = await rssMb(pid);
  console.log(`run: ${DURATION} s, ${CONNECTIONS} connections, mix of ${requests.length} requests per cycle: ${requests.map((r) => `${r.method} ${r.path}`).join(', ')}`);
  const ours = await run({ url, connections: CONNECTIONS, duration: DURATION, requests });
  const memEnd = await rssMb(pid);

  // Rows after: every write answered 2xx (warm-up included) must be stored. Stored rows may also include requests
  // still in flight when autocannon stopped (the server finished them; their answers were not counted).
  const login = await api(url, '/api/admin/login', { method: 'POST', body: JSON.stringify({ password: PASSWORD }) });
  const cookie = login.headers.get('set-cookie')?.split(';')[0] ?? '';
  // The render cache's counters (admin view of /api/health): how the HTML pages of the mix were answered.
  const renderCache = (await (await fetch(`${url}/api/health`, { headers: { cookie, origin: ORIGIN } })).json()).renderCache;
  const csv = await (await fetch(`${url}/api/admin/leads/export.csv`, { headers: { cookie, origin: ORIGIN } })).text();
  const storedContacts = new Set([...csv.matchAll(/Load Visitor \d+/g)].map((m) => m[0]));
  const storedPosts = new Set();
  for (let cursor = null, first = true; first || cursor; first = false) {
    const page = (await api(url, `/api/posts?limit=50${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`)).json;
    for (const p of page.posts) storedPosts.add(p.slug);
    cursor = page.nextCursor;
  }
  const missing = (acked, stored) => [...acked].filter((id) => !stored.has(id));
  const lostContacts = missing(acknowledged.contact, storedContacts);
  const lostPosts = missing(acknowledged.webhook, storedPosts);

  console.log(`bare Koa: ${DURATION} s, ${CONNECTIONS} connections, GET / answering {"ok":true}`);
  const ourErrors = new Map(errorKinds);
  const bareResult = await run({ url: await bare.url, connections: CONNECTIONS, duration: DURATION });

  const row = (name, r, memory) =>
    // autocannon's `errors` counts timeouts too.
    `| ${name} | ${Math.round(r.requests.average)} | ${r.latency.p50} | ${r.latency.p99} | ${r.errors} | ${r.non2xx} | ${memory} |`;
  console.log('');
  console.log('| server | req/s (mean) | p50 ms | p99 ms | errors (timeouts included) | non-2xx | rss MB start / after warm-up / end |');
  console.log('|---|---|---|---|---|---|---|');
  console.log(row('ours (mix)', ours, `${memStart.toFixed(0)} / ${memWarm.toFixed(0)} / ${memEnd.toFixed(0)}`));
  console.log(row('bare Koa route', bareResult, '-'));
  const growth = ((memEnd - memWarm) / memWarm) * 100;
  console.log('');
  console.log(`memory growth after warm-up: ${growth.toFixed(1)}% (target under 10%)`);
  console.log(`writes answered 2xx (warm-up + run): contact ${acknowledged.contact.size}, webhook ${acknowledged.webhook.size}`);
  console.log(`rows stored: contact messages ${storedContacts.size}, webhook posts ${storedPosts.size - seeded.total} (includes writes in flight when the clients stopped)`);
  const lost = lostContacts.length + lostPosts.length;
  console.log(`lost writes (answered 2xx, not stored): ${lost}${lost ? ` ${JSON.stringify([...lostContacts, ...lostPosts].slice(0, 10))}` : ''}`);
  console.log(`answers by request (warm-up + run): ${[...tally].sort().map(([k, v]) => `${k}: ${v}`).join(', ')}`);
  console.log(`client errors by kind (warm-up + run): ${ourErrors.size ? [...ourErrors].map(([k, v]) => `${k}: ${v}`).join(', ') : 'none'}`);
  console.log(`latency max: ${ours.latency.max} ms`);
  console.log(`HTML pages (warm-up + run): ${pagesRendered.server} rendered on the server, ${pagesRendered.browser} left to the browser (waited past SSR_QUEUE_MS)`);
  if (renderCache) {
    const { hits, staleHits, coalesced, misses, hitRatio } = renderCache;
    console.log(
      `render cache (warm-up + run): hit ratio ${hitRatio === null ? '-' : `${(hitRatio * 100).toFixed(1)}%`} (kept ${hits}, stale while re-rendered ${staleHits}, waited for another's render ${coalesced}, rendered ${misses})`,
    );
  }
  const pct = (sorted, q) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? NaN;
  for (const [name, list] of [...latencies].sort()) {
    const sorted = list.sort((a, b) => a - b);
    console.log(`  ${name}: p50 ${pct(sorted, 0.5).toFixed(0)} ms, p99 ${pct(sorted, 0.99).toFixed(0)} ms, max ${sorted.at(-1).toFixed(0)} ms, unanswered ${unanswered.get(name) ?? 0}`);
  }
  console.log(`warm-up: ${Math.round(warm.requests.average)} req/s, ${warm.errors} errors, ${warm.non2xx} non-2xx`);
  if (lost !== 0 || ours.errors > 0 || ours.non2xx > 0) exitCode = 1;
} catch (error) {
  console.error(error);
  exitCode = 1;
} finally {
  bare.child.kill('SIGTERM');
  if (server.child.exitCode === null && server.child.signalCode === null) {
    const exited = new Promise((resolve) => server.child.once('exit', resolve));
    server.child.kill('SIGTERM');
    await exited;
  }
  await rm(dataDir, { recursive: true, force: true });
}
process.exit(exitCode);
