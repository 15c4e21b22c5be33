// What the benches that watch a running server share: start the API in a child process of its own (so its RSS is the
// server's alone), read that RSS, probe /api/health/live, sample the RSS's peak, and quantiles.
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
export const root = path.resolve(here, '../..');
const Database = createRequire(path.join(here, '../package.json'))('libsql');

/**
 * Starts the API from its sources through run-ts.mjs (esbuild), or `api/dist/server.js` with `built`, on `env` alone
 * (plus PATH); `url` resolves once it says where it listens (rejects if it exits first or after `timeoutMs`), `stop`
 * sends SIGTERM and resolves when it has exited. Its output is kept (the last `outputLimit` characters, 20,000 by
 * default: enough for an error message; Infinity for a bench that reads the server's log lines).
 */
export function startServer(env, { built = false, timeoutMs = 60_000, outputLimit = 20_000 } = {}) {
  const command = built ? ['api/dist/server.js'] : ['api/bench/run-ts.mjs', 'api/src/server.ts'];
  const child = spawn(process.execPath, command, { cwd: root, env: { PATH: process.env.PATH, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout.setEncoding('utf8').on('data', (c) => (out = (out + c).slice(-outputLimit)));
  child.stderr.setEncoding('utf8').on('data', (c) => (out = (out + c).slice(-outputLimit)));
  const url = new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`did not start in ${timeoutMs / 1000} s:\n${out}`)), timeoutMs);
    child.stdout.on('data', () => {
      const m = /Site running at http:\/\/(?:localhost|127\.0\.0\.1):(\d+)/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve(`http://127.0.0.1:${m[1]}`);
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`the server exited (${code}):\n${out}`));
    });
  });
  url.catch(() => {});
  const stopped = new Promise((resolve) => child.once('exit', resolve));
  return { child, url, output: () => out, stop: () => (child.exitCode === null && child.signalCode === null ? child.kill('SIGTERM') : undefined, stopped) };
}

/** Logs in with the admin password; answers the session cookie. */
export async function login(base, password, origin) {
  const res = await fetch(`${base}/api/admin/login`, { method: 'POST', headers: { 'content-type': 'application/json', origin }, body: JSON.stringify({ password }) });
  const cookie = res.headers.get('set-cookie')?.split(';')[0];
  if (!cookie) throw new Error(`login answered ${res.status}`);
  return cookie;
}

export async function rssMb(pid) {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? NaN) / 1024;
}

export const quantile = (sorted, q) => (sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] : NaN);

/** Calls /api/health/live one after another, 20 ms apart, until stopped; answers its latencies in ms, sorted. */
export function probeLive(base) {
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
export function sampleRss(pid) {
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

/** 100,000 rows in one statement: three messages a minute apart… spread evenly over five years, ~400 bytes each. */
export function seedLeads(file, count) {
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

