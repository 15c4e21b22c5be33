// Server render time of every public route under load, over loopback (build the API, the shell and the remotes
// first): `node api/bench/ssr-bench.mjs [--duration 5] [--connections 50] [--warmup 2] [--cache-mb 64] [--observability]`.
// `--cache-mb 0` turns the render cache off (RENDER_CACHE_MB): every answer is rendered, as a first visit after a
// deploy is. `--observability` measures instead what metrics and tracing cost: the same routes on four servers started
// side by side (plain; METRICS_TOKEN set and scraped every second; OTEL_EXPORTER_OTLP_ENDPOINT exporting to a sink on
// loopback started here; both), the servers taking turns route by route so that all four see the same machine. The first line is a bare Koa route (one `ctx.body = 'ok'`, its own process) measured the same way.
// `--release-counting` measures what counting each page against its release costs (issue 34, release-errors/): the
// pages on two servers side by side, RELEASE_ERROR_COUNTING=off and on, taking turns route by route. Every request
// sends a browser's User-Agent (a request without one is a program's, which is not counted). `--server <file>` runs
// another build of the server than api/dist/server.js.
//
// Starts `node api/dist/server.js` on a fresh SQLite DATA_DIR (the seeded posts; one analysis report is created
// through the API), then, route by route, asks for it on --connections concurrent keep-alive connections for
// --duration seconds. For each route it prints the server's own render time (the `Server-Timing: ssr;dur=` trailer,
// sent after the streamed body: data, remote render and shell render, p50/p95), what the client saw (first byte: the
// head, sent before the render; last byte: the whole page), with the throughput and any non-200 answer. Bounded:
// each route stops after --duration seconds; nothing leaves loopback.
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import http from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';


const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const { values: args } = parseArgs({
  options: {
    duration: { type: 'string', default: '5' },
    connections: { type: 'string', default: '50' },
    warmup: { type: 'string', default: '2' },
    'cache-mb': { type: 'string', default: '64' },
    observability: { type: 'boolean', default: false },
    'release-counting': { type: 'boolean', default: false },
    server: { type: 'string', default: 'api/dist/server.js' },
  },
});
/** What a person's browser sends: a page it asks for is counted against its release (a program's is not). */
const BROWSER_UA = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const DURATION = Number(args.duration);
const CONNECTIONS = Number(args.connections);
const WARMUP = Number(args.warmup);
if (![DURATION, CONNECTIONS, WARMUP].every((n) => Number.isFinite(n) && n > 0) || DURATION > 120 || CONNECTIONS > 500) {
  console.error('Usage: node api/bench/ssr-bench.mjs [--duration 1-120 s per route] [--connections 1-500] [--warmup s]');
  process.exit(2);
}

function startServer(env, script = [args.server]) {
  const child = spawn(process.execPath, script, { cwd: root, env: { PATH: process.env.PATH, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  const url = new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the server did not start in 20 s:\n${out}`)), 20_000);
    const onData = (chunk) => {
      out += chunk;
      const m = /Site running at http:\/\/(?:localhost|127\.0\.0\.1):(\d+)/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve(`http://127.0.0.1:${m[1]}`);
      }
    };
    child.stdout.setEncoding('utf8').on('data', onData);
    child.stderr.setEncoding('utf8').on('data', onData);
    child.on('exit', (code) => reject(new Error(`the server exited (${code}):\n${out}`)));
  });
  return { child, url, log: () => out };
}

const percentile = (sorted, p) => (sorted.length ? sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] : NaN);

/**
 * --connections loops, each asking for the page again as soon as it has it (keep-alive, brotli as a browser asks),
 * for durationS seconds. Per answer: the time to its first byte (the head, sent before the render) and to its last,
 * and the server's render time from the `Server-Timing` trailer that follows the body.
 */
async function run(url, durationS) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: CONNECTIONS });
  const renderMs = [];
  const firstByteMs = [];
  const totalMs = [];
  const statuses = new Map();
  const cache = new Map();
  let errors = 0;
  let answered = 0;
  const until = performance.now() + durationS * 1000;
  const once = () =>
    new Promise((resolve) => {
      const started = performance.now();
      let first;
      const req = http.get(url, { agent, headers: { accept: 'text/html', 'accept-encoding': 'br', 'user-agent': BROWSER_UA } }, (res) => {
        res.on('data', () => {
          first ??= performance.now() - started;
        });
        res.on('error', () => {
          errors += 1;
          resolve();
        });
        res.on('end', () => {
          answered += 1;
          totalMs.push(performance.now() - started);
          firstByteMs.push(first ?? performance.now() - started);
          statuses.set(res.statusCode, (statuses.get(res.statusCode) ?? 0) + 1);
          const how = res.headers['x-render-cache'] ?? 'none';
          cache.set(how, (cache.get(how) ?? 0) + 1);
          const timing = /ssr;dur=([\d.]+)/.exec(String(res.trailers['server-timing'] ?? ''))?.[1];
          if (timing) renderMs.push(Number(timing));
          resolve();
        });
      });
      req.setTimeout(10_000, () => req.destroy(new Error('no answer in 10 s')));
      req.on('error', () => {
        errors += 1;
        resolve();
      });
    });
  const loop = async () => {
    while (performance.now() < until) await once();
  };
  await Promise.all(Array.from({ length: CONNECTIONS }, loop));
  agent.destroy();
  const sort = (list) => list.sort((x, y) => x - y);
  return { renderMs: sort(renderMs), firstByteMs: sort(firstByteMs), totalMs: sort(totalMs), statuses, cache, errors, answered, perSecond: answered / durationS };
}


if (args.observability) {
  await observabilityOverhead();
  process.exit(0);
}
if (args['release-counting']) {
  await observabilityOverhead(
    [
      { name: 'counting off', env: { RELEASE_ERROR_COUNTING: 'off' } },
      { name: 'counting on', env: {} },
    ],
    ['/', '/blog', 'post', '/roi-calculator'],
  );
  process.exit(0);
}

/** A receiver of OTLP/HTTP spans on loopback that counts what arrives and keeps nothing. */
async function spanSink() {
  let requests = 0;
  let bytes = 0;
  const sink = http.createServer((req, res) => {
    req.on('data', (chunk) => (bytes += chunk.length));
    req.on('end', () => {
      requests += 1;
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise((resolve) => sink.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${sink.address().port}`, stats: () => ({ requests, bytes }), close: () => new Promise((resolve) => sink.close(resolve)) };
}

/**
 * The figures of the issues: what metrics and tracing (or given variants: counting per release) add to a page, each
 * variant its own server, same routes (`post`: the first post's page). The first variant is the baseline.
 */
async function observabilityOverhead(given, routeNames) {
  const TOKEN = 'bench-metrics-token-0123456789';
  const sink = await spanSink();
  const variants = given ?? [
    { name: 'off', env: {} },
    { name: 'metrics', env: { METRICS_TOKEN: TOKEN } },
    { name: 'tracing', env: { OTEL_EXPORTER_OTLP_ENDPOINT: sink.url } },
    { name: 'metrics + tracing', env: { METRICS_TOKEN: TOKEN, OTEL_EXPORTER_OTLP_ENDPOINT: sink.url } },
  ];
  const dirs = [];
  const servers = [];
  try {
    for (const variant of variants) {
      const dir = await mkdtemp(path.join(tmpdir(), 'ssr-bench-'));
      dirs.push(dir);
      const started = startServer({
        PORT: '0',
        HOST: '127.0.0.1',
        DATA_DIR: dir,
        LOG_LEVEL: 'error',
        RATE_LIMIT_MULTIPLIER: '100000',
        PUBLIC_ORIGIN: 'http://127.0.0.1',
        RENDER_CACHE_MB: args['cache-mb'],
        ...variant.env,
      });
      servers.push({ ...variant, child: started.child, base: await started.url });
    }
    // Prometheus' part: one scrape a second of each server that has metrics, for the whole run.
    const scrapes = setInterval(() => {
      for (const s of servers) if (s.env.METRICS_TOKEN) void fetch(`${s.base}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } }).then((r) => r.arrayBuffer(), () => undefined);
    }, 1000);
    const posts = await (await fetch(`${servers[0].base}/api/posts`)).json();
    const routes = (routeNames ?? ['/', '/roi-calculator', '/blog', 'post', '/api/posts', '/api/health/live']).map((r) => (r === 'post' ? `/blog/${posts.posts[0].slug}` : r));
    const totals = new Map(variants.map((v) => [v.name, { perSecond: [], p50: [], p95: [] }]));
    console.log(`${CONNECTIONS} connections, ${DURATION} s per route and variant (after ${WARMUP} s of warm-up), loopback, node ${process.version}, render cache ${Number(args['cache-mb']) > 0 ? `${args['cache-mb']} MB` : 'off'}\n`);
    console.log('| route | variant | req/s | whole page p50 (ms) | whole page p95 (ms) | render p50 (ms) | answers |');
    console.log('|---|---|---|---|---|---|---|');
    for (const route of routes) {
      for (const s of servers) {
        await run(`${s.base}${route}`, WARMUP);
        const r = await run(`${s.base}${route}`, DURATION);
        const t = totals.get(s.name);
        t.perSecond.push(r.perSecond);
        t.p50.push(percentile(r.totalMs, 50));
        t.p95.push(percentile(r.totalMs, 95));
        const answers = [...r.statuses].map(([status, n]) => `${n}x${status}`).join(' ');
        console.log(
          `| ${route.startsWith('/blog/') && route !== '/blog' ? '/blog/:slug' : route} | ${s.name} | ${Math.round(r.perSecond)} | ${percentile(r.totalMs, 50).toFixed(2)} | ${percentile(r.totalMs, 95).toFixed(2)} | ${r.renderMs.length ? percentile(r.renderMs, 50).toFixed(2) : '-'} | ${answers}${r.errors ? ` ${r.errors} errors` : ''} |`,
        );
      }
    }
    clearInterval(scrapes);
    const mean = (list) => list.reduce((a, b) => a + b, 0) / list.length;
    const base = totals.get(variants[0].name);
    console.log(`\n| variant | mean req/s over the routes | vs ${variants[0].name} | mean p50 (ms) | mean p95 (ms) |`);
    console.log('|---|---|---|---|---|');
    for (const [name, t] of totals) {
      const change = ((mean(t.perSecond) / mean(base.perSecond) - 1) * 100).toFixed(1);
      console.log(`| ${name} | ${Math.round(mean(t.perSecond))} | ${name === variants[0].name ? '-' : `${change} %`} | ${mean(t.p50).toFixed(2)} | ${mean(t.p95).toFixed(2)} |`);
    }
    const { requests, bytes } = sink.stats();
    console.log(`\nSpan sink: ${requests} OTLP exports received, ${(bytes / 1024 / 1024).toFixed(1)} MB.`);
  } finally {
    for (const s of servers) s.child.kill('SIGTERM');
    await Promise.all(servers.map((s) => new Promise((resolve) => (s.child.exitCode !== null ? resolve() : s.child.once('exit', resolve)))));
    await sink.close();
    for (const dir of dirs) await rm(dir, { recursive: true, force: true });
  }
}

const dataDir = await mkdtemp(path.join(tmpdir(), 'ssr-bench-'));
const server = startServer({
  PORT: '0',
  HOST: '127.0.0.1',
  DATA_DIR: dataDir,
  LOG_LEVEL: 'error',
  RATE_LIMIT_MULTIPLIER: '100000',
  PUBLIC_ORIGIN: 'http://127.0.0.1',
  RENDER_CACHE_MB: args['cache-mb'],
});
// The reference: Koa with one route, nothing else, in a process of its own.
const BARE_KOA = `const Koa = require('koa'); const app = new Koa(); app.use((ctx) => { ctx.body = 'ok'; });
const s = app.listen(0, '127.0.0.1', () => console.log('Site running at http://127.0.0.1:' + s.address().port));`;
const bare = startServer({ NODE_PATH: path.join(root, 'api/node_modules') }, ['-e', BARE_KOA]);
try {
  const base = await server.url;
  const report = await fetch(`${base}/api/analyze-smb-business`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ businessName: 'Bench Bakery', location: 'Danville, CA' }),
  });
  if (report.status !== 200) throw new Error(`could not create a report: ${report.status} ${await report.text()}`);
  const { id } = await report.json();
  const posts = await (await fetch(`${base}/api/posts`)).json();

  const routes = [
    '/',
    '/local-services/danville-ai-automation',
    '/case-studies/danville-restaurant-automation',
    '/case-studies/restaurant-automation',
    '/roi-calculator',
    '/local-services',
    '/blog',
    `/blog/${posts.posts[0].slug}`,
    `/blog/category/${posts.posts[0].categorySlug ?? 'ai-automation'}`,
    '/free-analysis',
    '/website-analysis',
    `/free-analysis/report/${id}`,
  ];

  console.log(`${CONNECTIONS} connections, ${DURATION} s per route (after ${WARMUP} s of warm-up), loopback, node ${process.version}, render cache ${Number(args['cache-mb']) > 0 ? `${args['cache-mb']} MB` : 'off'}\n`);
  console.log('| route | render p50 (ms) | render p95 (ms) | first byte p50 (ms) | whole page p50 (ms) | whole page p95 (ms) | req/s | answers | from the cache |');
  console.log('|---|---|---|---|---|---|---|---|---|');
  const bareUrl = await bare.url;
  await run(bareUrl, WARMUP);
  const koa = await run(bareUrl, DURATION);
  const msOf = (list, p) => percentile(list, p).toFixed(1);
  console.log(`| bare Koa route | - | - | ${msOf(koa.firstByteMs, 50)} | ${msOf(koa.totalMs, 50)} | ${msOf(koa.totalMs, 95)} | ${Math.round(koa.perSecond)} | ${[...koa.statuses].map(([status, n]) => `${n}x${status}`).join(' ')} | - |`);
  bare.child.kill('SIGTERM');
  for (const route of routes) {
    await run(`${base}${route}`, WARMUP);
    const { renderMs, firstByteMs, totalMs, statuses, cache, errors, answered, perSecond } = await run(`${base}${route}`, DURATION);
    const kept = (cache.get('hit') ?? 0) + (cache.get('coalesced') ?? 0) + (cache.get('stale') ?? 0);
    const answers = [...statuses].map(([status, n]) => `${n}x${status}`).join(' ');
    const label = route.startsWith('/free-analysis/report/') ? '/free-analysis/report/:id' : route;
    const ms = (list, p) => percentile(list, p).toFixed(1);
    console.log(
      `| ${label} | ${renderMs.length ? ms(renderMs, 50) : '-'} | ${renderMs.length ? ms(renderMs, 95) : '-'} | ${ms(firstByteMs, 50)} | ${ms(totalMs, 50)} | ${ms(totalMs, 95)} | ${Math.round(perSecond)} | ${answers}${errors ? ` ${errors} errors` : ''} | ${answered ? `${((100 * kept) / answered).toFixed(1)}%` : '-'} |`,
    );
  }
} finally {
  bare.child.kill('SIGTERM');
  server.child.kill('SIGTERM');
  await new Promise((resolve) => server.child.once('exit', resolve));
  await rm(dataDir, { recursive: true, force: true });
}
