// The leads CSV export at size (issue 32): seeds --leads contact messages (100,000 by default, about five years of a
// busy small business) into a temp SQLite DATA_DIR, then downloads GET /api/admin/leads/export.csv (identity, then
// gzip) while a prober calls /api/health/live every 20 ms, and prints per download the time to first byte, the total
// time, the bytes, the server's RSS before and at its peak, and /api/health/live p50/p99 (idle first, for reference).
//   node api/bench/export-stream.mjs [--leads 100000] [--built]
// Starts the API from its sources through run-ts.mjs (esbuild) in a child process of its own, so its RSS is the
// server's alone; --built starts api/dist/server.js instead (after `npx pnpm@10.34.9 --filter api build`).
import http from 'node:http';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { parseArgs } from 'node:util';
import { login, probeLive, quantile, rssMb, sampleRss, seedLeads, startServer } from './bench-kit.mjs';

const { values: args } = parseArgs({ options: { leads: { type: 'string', default: '100000' }, built: { type: 'boolean', default: false } } });
const LEADS = Math.max(1, Number(args.leads) || 100_000);
const PASSWORD = 'export-bench admin password';
const ORIGIN = 'http://127.0.0.1';

function download(base, cookie, encoding) {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    http
      .get(`${base}/api/admin/leads/export.csv`, { headers: { cookie, 'accept-encoding': encoding }, agent: false }, (res) => {
        let firstByte;
        let bytes = 0;
        res.on('data', (chunk) => {
          firstByte ??= performance.now() - started;
          bytes += chunk.length;
        });
        res.on('end', () => resolve({ status: res.statusCode, encoding: res.headers['content-encoding'] ?? 'identity', firstByte, total: performance.now() - started, bytes }));
        res.on('error', reject);
      })
      .on('error', reject);
  });
}

const dataDir = await mkdtemp(path.join(tmpdir(), 'export-bench-'));
const env = { PORT: '0', HOST: '127.0.0.1', DATA_DIR: dataDir, SITE_ROOT: dataDir, PUBLIC_ORIGIN: ORIGIN, ADMIN_PASSWORD: PASSWORD, LOG_LEVEL: 'warn' };
let server;
try {
  // Once to create the database (migrations), then seeded while stopped, then started again on the seeded file.
  server = startServer(env, { built: args.built });
  await server.url;
  await server.stop();
  const seeding = performance.now();
  seedLeads(path.join(dataDir, 'site.db'), LEADS);
  console.log(`seeded ${LEADS} leads in ${Math.round(performance.now() - seeding)} ms`);
  server = startServer(env, { built: args.built });
  const base = await server.url;
  const cookie = await login(base, PASSWORD, ORIGIN);
  // Warm-up (the code paths, not the data: a small export), then the idle liveness for reference.
  const warm = await fetch(`${base}/api/admin/leads/export.csv?q=visitor1234567`, { headers: { cookie } });
  await warm.arrayBuffer();
  const idle = probeLive(base);
  await sleep(2000);
  const idleLive = await idle();
  console.log(`idle /api/health/live: p50 ${quantile(idleLive, 0.5).toFixed(1)} ms, p99 ${quantile(idleLive, 0.99).toFixed(1)} ms (${idleLive.length} calls)`);
  console.log('');
  console.log('| download | status | first byte ms | total ms | MB sent | rss MB before / peak (delta) | /api/health/live p50 / p99 / max ms (calls) |');
  console.log('|---|---|---|---|---|---|---|');
  for (const encoding of ['identity', 'gzip']) {
    await sleep(1000);
    const before = await rssMb(server.child.pid);
    const stopRss = sampleRss(server.child.pid);
    const stopLive = probeLive(base);
    const result = await download(base, cookie, encoding);
    const live = await stopLive();
    const peak = await stopRss();
    console.log(
      `| ${result.encoding} | ${result.status} | ${result.firstByte.toFixed(0)} | ${result.total.toFixed(0)} | ${(result.bytes / 1e6).toFixed(1)} | ${before.toFixed(0)} / ${peak.toFixed(0)} (+${(peak - before).toFixed(0)}) | ${quantile(live, 0.5).toFixed(1)} / ${quantile(live, 0.99).toFixed(1)} / ${live.at(-1)?.toFixed(1)} (${live.length}) |`,
    );
  }
  console.log(`\n${LEADS} leads, SQLite, ${args.built ? 'api/dist/server.js' : 'the API from its sources (run-ts.mjs)'}, node ${process.version}.`);
} finally {
  await server?.stop();
  await rm(dataDir, { recursive: true, force: true });
}
