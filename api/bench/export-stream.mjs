// The leads CSV export at size (issue 32): seeds --leads contact messages (100,000 by default, about five years of a
// busy small business) into a temp SQLite DATA_DIR, then downloads GET /api/admin/leads/export.csv (identity, then
// gzip) while a prober calls /api/health/live every 20 ms, and prints per download the time to first byte, the total
// time, the bytes, the server's RSS before and at its peak, and /api/health/live p50/p99 (idle first, for reference).
//   node api/bench/export-stream.mjs [--leads 100000] [--built]
// Starts the API from its sources through run-ts.mjs (esbuild) in a child process of its own, so its RSS is the
// server's alone; --built starts api/dist/server.js instead (after `npx pnpm@10.34.9 --filter api build`).
import { spawn } from 'node:child_process';
import http from 'node:http';
import { createRequire } from 'node:module';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '../..');
const Database = createRequire(path.join(here, '../package.json'))('libsql');
const { values: args } = parseArgs({ options: { leads: { type: 'string', default: '100000' }, built: { type: 'boolean', default: false } } });
const LEADS = Math.max(1, Number(args.leads) || 100_000);
const PASSWORD = 'export-bench admin password';
const ORIGIN = 'http://127.0.0.1';

function start(env) {
  const command = args.built ? ['api/dist/server.js'] : ['api/bench/run-ts.mjs', 'api/src/server.ts'];
  const child = spawn(process.execPath, command, { cwd: root, env: { PATH: process.env.PATH, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout.setEncoding('utf8').on('data', (c) => (out += c));
  child.stderr.setEncoding('utf8').on('data', (c) => (out += c));
  const url = new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`did not start in 60 s:\n${out}`)), 60_000);
    child.stdout.on('data', () => {
      const m = /Site running at http:\/\/localhost:(\d+)/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve(`http://127.0.0.1:${m[1]}`);
      }
    });
    child.once('exit', (code) => reject(new Error(`the server exited (${code}):\n${out}`)));
  });
  const stopped = new Promise((resolve) => child.once('exit', resolve));
  return { child, url, stop: () => (child.kill('SIGTERM'), stopped) };
}

async function rssMb(pid) {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? NaN) / 1024;
}

/** 100,000 rows in one statement: three messages a minute apart… spread evenly over five years, ~400 bytes each. */
function seed(file, count) {
  const db = new Database(file);
  db.exec(`
    with recursive n(i) as (select 0 union all select i + 1 from n where i < ${count - 1})
    insert into contact_messages (id, created_at, ip_hash, user_agent, name, email, company, subject, message, mail_status, mail_attempts, read_at, handled_at)
    select printf('lead-%07d', i),
           strftime('%Y-%m-%dT%H:%M:%fZ', '2021-11-27', '+' || (i * 1576) || ' seconds'),
           'hash', 'Mozilla/5.0 (bench)', 'Visitor ' || i, 'visitor' || i || '@example.com',
           case when i % 3 = 0 then 'Tri Valley Dental' end, 'Appointment reminders',
           'Hello, we are a small practice in Pleasanton and would like to automate reminder texts and follow-ups. ' ||
           'Could you tell us what that costs and how long it takes to set up? Message ' || i || '.',
           'sent', 1,
           case when i % 2 = 0 then '2026-01-01T00:00:00.000Z' end,
           case when i % 4 = 0 then '2026-01-02T00:00:00.000Z' end
    from n`);
  db.close();
}

const quantile = (sorted, q) => (sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] : NaN);

/** Calls /api/health/live one after another, 20 ms apart, until stopped; answers its latencies in ms, sorted. */
function probeLive(base) {
  let running = true;
  const latencies = [];
  const done = (async () => {
    while (running) {
      const t = performance.now();
      const res = await fetch(`${base}/api/health/live`);
      await res.arrayBuffer();
      latencies.push(performance.now() - t);
      await sleep(20);
    }
  })();
  return async () => {
    running = false;
    await done;
    return latencies.sort((a, b) => a - b);
  };
}

/** Samples the server's RSS every 25 ms until stopped; answers the peak. */
function sampleRss(pid) {
  let running = true;
  let peak = 0;
  const done = (async () => {
    while (running) {
      peak = Math.max(peak, await rssMb(pid));
      await sleep(25);
    }
  })();
  return async () => {
    running = false;
    await done;
    return peak;
  };
}

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
  server = start(env);
  await server.url;
  await server.stop();
  const seeding = performance.now();
  seed(path.join(dataDir, 'site.db'), LEADS);
  console.log(`seeded ${LEADS} leads in ${Math.round(performance.now() - seeding)} ms`);
  server = start(env);
  const base = await server.url;
  const login = await fetch(`${base}/api/admin/login`, { method: 'POST', headers: { 'content-type': 'application/json', origin: ORIGIN }, body: JSON.stringify({ password: PASSWORD }) });
  const cookie = login.headers.get('set-cookie')?.split(';')[0];
  if (!cookie) throw new Error(`login answered ${login.status}`);
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
