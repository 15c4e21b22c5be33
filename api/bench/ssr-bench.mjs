// Server render time of every public route under load, over loopback (build the API, the shell and the remotes
// first): `node api/bench/ssr-bench.mjs [--duration 5] [--connections 50] [--warmup 2]`.
//
// Starts `node api/dist/server.js` on a fresh SQLite DATA_DIR (the seeded posts; one analysis report is created
// through the API), then, route by route, drives it with autocannon at --connections concurrent connections for
// --duration seconds. For each route it prints the server's own render time (the `Server-Timing: ssr;dur=` header:
// data, remote render and shell render, p50/p95) and the request latency seen by the client (p50/p97.5), with the
// throughput and any non-200 answer. Bounded: each route stops after --duration seconds; nothing leaves loopback.
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const require = createRequire(import.meta.url);
const autocannon = require('autocannon');

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const { values: args } = parseArgs({
  options: {
    duration: { type: 'string', default: '5' },
    connections: { type: 'string', default: '50' },
    warmup: { type: 'string', default: '2' },
  },
});
const DURATION = Number(args.duration);
const CONNECTIONS = Number(args.connections);
const WARMUP = Number(args.warmup);
if (![DURATION, CONNECTIONS, WARMUP].every((n) => Number.isFinite(n) && n > 0) || DURATION > 120 || CONNECTIONS > 500) {
  console.error('Usage: node api/bench/ssr-bench.mjs [--duration 1-120 s per route] [--connections 1-500] [--warmup s]');
  process.exit(2);
}

function startServer(env) {
  const child = spawn(process.execPath, ['api/dist/server.js'], { cwd: root, env: { PATH: process.env.PATH, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
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

function run(url, durationS) {
  const renderMs = [];
  const statuses = new Map();
  return new Promise((resolve, reject) => {
    const instance = autocannon(
      {
        url,
        connections: CONNECTIONS,
        duration: durationS,
        headers: { accept: 'text/html' },
        requests: [
          {
            onResponse: (status, _body, _context, headers) => {
              statuses.set(status, (statuses.get(status) ?? 0) + 1);
              // autocannon hands the raw header list ([name, value, …]) or an object, depending on the version.
              const list = Array.isArray(headers) ? headers : Object.entries(headers ?? {}).flat();
              const at = list.findIndex((h, i) => i % 2 === 0 && String(h).toLowerCase() === 'server-timing');
              const timing = at >= 0 ? /ssr;dur=([\d.]+)/.exec(String(list[at + 1]))?.[1] : undefined;
              if (timing) renderMs.push(Number(timing));
            },
          },
        ],
      },
      (error, result) => (error ? reject(error) : resolve({ result, renderMs: renderMs.sort((a, b) => a - b), statuses })),
    );
    autocannon.track(instance, { renderProgressBar: false, renderResultsTable: false, renderLatencyTable: false });
  });
}

const dataDir = await mkdtemp(path.join(tmpdir(), 'ssr-bench-'));
const server = startServer({ PORT: '0', HOST: '127.0.0.1', DATA_DIR: dataDir, LOG_LEVEL: 'error', RATE_LIMIT_MULTIPLIER: '100000', PUBLIC_ORIGIN: 'http://127.0.0.1' });
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

  console.log(`${CONNECTIONS} connections, ${DURATION} s per route (after ${WARMUP} s of warm-up), loopback, node ${process.version}\n`);
  console.log('| route | render p50 (ms) | render p95 (ms) | latency p50 (ms) | latency p97.5 (ms) | req/s | answers |');
  console.log('|---|---|---|---|---|---|---|');
  for (const route of routes) {
    await run(`${base}${route}`, WARMUP);
    const { result, renderMs, statuses } = await run(`${base}${route}`, DURATION);
    const answers = [...statuses].map(([status, n]) => `${n}x${status}`).join(' ');
    const label = route.startsWith('/free-analysis/report/') ? '/free-analysis/report/:id' : route;
    console.log(
      `| ${label} | ${percentile(renderMs, 50).toFixed(1)} | ${percentile(renderMs, 95).toFixed(1)} | ${result.latency.p50} | ${result.latency.p97_5} | ${Math.round(result.requests.average)} | ${answers}${result.errors ? ` ${result.errors} errors` : ''}${renderMs.length < result.requests.total ? ` (${result.requests.total - renderMs.length} not server-rendered)` : ''} |`,
    );
  }
} finally {
  server.child.kill('SIGTERM');
  await new Promise((resolve) => server.child.once('exit', resolve));
  await rm(dataDir, { recursive: true, force: true });
}
