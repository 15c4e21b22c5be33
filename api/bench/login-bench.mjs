// Login latency of the admin API, over loopback, against the built server (`npx pnpm@10.34.9 --filter api build`
// first): `node api/bench/login-bench.mjs`. Bounded: a few dozen logins and a few scrypt runs per cost.
//
// It prints (1) the time of one scrypt check at several costs, to show what the chosen cost buys, and (2) the p50/p95
// of POST /api/admin/login with ADMIN_PASSWORD_HASH at the chosen cost, one at a time and four at a time.
import { spawn } from 'node:child_process';
import { randomBytes, scrypt } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '../..');
const PASSWORD = 'bench password, not a secret';
const CHOSEN = { N: 2 ** 15, r: 8, p: 1 };

const scryptMs = (N, r, p) =>
  new Promise((resolve, reject) => {
    const start = performance.now();
    scrypt(PASSWORD, randomBytes(16), 32, { N, r, p, maxmem: 256 * N * r + 1024 * 1024 }, (e, key) =>
      e ? reject(e) : resolve({ ms: performance.now() - start, key }),
    );
  });

const pct = (values, q) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((q / 100) * sorted.length) - 1)];
};
const fmt = (ms) => `${ms.toFixed(1)} ms`;

console.log('scrypt, one check (r=8, p=1), median of 5:');
for (const exp of [14, 15, 16, 17]) {
  const N = 2 ** exp;
  const times = [];
  for (let i = 0; i < 5; i++) times.push((await scryptMs(N, 8, 1)).ms);
  console.log(`  N=2^${exp} (${(128 * N * 8) / 1024 ** 2} MiB): ${fmt(pct(times, 50))}`);
}

const salt = randomBytes(16);
const key = await new Promise((resolve, reject) =>
  scrypt(PASSWORD, salt, 32, { ...CHOSEN, maxmem: 256 * CHOSEN.N * CHOSEN.r + 1024 * 1024 }, (e, k) => (e ? reject(e) : resolve(k))),
);
const hash = ['scrypt', CHOSEN.N, CHOSEN.r, CHOSEN.p, salt.toString('base64'), key.toString('base64')].join('$');

const dataDir = await mkdtemp(path.join(tmpdir(), 'login-bench-'));
const server = spawn(process.execPath, [path.join(root, 'api/dist/server.js')], {
  cwd: root,
  env: { ...process.env, PORT: '0', HOST: '127.0.0.1', DATA_DIR: dataDir, LOG_LEVEL: 'silent', ADMIN_PASSWORD_HASH: hash, DATABASE_URL: '' },
  stdio: ['ignore', 'pipe', 'inherit'],
});
try {
  const url = await new Promise((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error('the server did not start in 20 s')), 20_000);
    server.stdout.on('data', (chunk) => {
      out += chunk;
      const m = /Site running at (http:\/\/\S+)/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve(m[1].replace('localhost', '127.0.0.1'));
      }
    });
    server.on('exit', (code) => reject(new Error(`the server exited (${code})`)));
  });
  const origin = new URL(url).origin;
  const login = async () => {
    const start = performance.now();
    const res = await fetch(`${url}/api/admin/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin },
      body: JSON.stringify({ password: PASSWORD }),
    });
    await res.arrayBuffer();
    if (res.status !== 200) throw new Error(`login answered ${res.status}`);
    return performance.now() - start;
  };
  await login(); // warm up
  const sequential = [];
  for (let i = 0; i < 30; i++) sequential.push(await login());
  const concurrent = [];
  for (let round = 0; round < 8; round++) concurrent.push(...(await Promise.all([login(), login(), login(), login()])));
  console.log(`\nPOST /api/admin/login with N=2^${Math.log2(CHOSEN.N)}, r=${CHOSEN.r}, p=${CHOSEN.p} over loopback:`);
  console.log(`  one at a time (30):  p50 ${fmt(pct(sequential, 50))}, p95 ${fmt(pct(sequential, 95))}`);
  console.log(`  four at a time (32): p50 ${fmt(pct(concurrent, 50))}, p95 ${fmt(pct(concurrent, 95))}`);
} finally {
  server.kill('SIGTERM');
  await new Promise((resolve) => server.once('exit', resolve));
  await rm(dataDir, { recursive: true, force: true });
}
