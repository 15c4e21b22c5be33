#!/usr/bin/env node
// Memory of the server across many deploys: the built server (api/dist/server.js) serves a site root of its own
// (the built shell and blog, copied), pages are requested all along, and the blog is deployed as a new release and
// rolled back CYCLES times with `npm run deploy`/`rollback`'s script. Prints the server's RSS before, every 10 cycles
// and after, and how many of its requests failed. Needs `npm run build` first.
//   node api/bench/release-memory-bench.mjs [cycles=50]
import { spawn, execFile } from 'node:child_process';
import { cp, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const run = promisify(execFile);
const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const CYCLES = Number(process.argv[2] ?? 50);
const PORT = 3000 + Math.floor(Math.random() * 900) + 4100;
const base = `http://127.0.0.1:${PORT}`;

const root = await mkdtemp(path.join(tmpdir(), 'release-memory-'));
const site = path.join(root, 'site');
// The built shell and blog, as on a machine that serves them; their server entries resolve react from these.
for (const app of ['shell', 'mfe-blog']) {
  await cp(path.join(REPO, app, 'dist'), path.join(site, app, 'dist'), { recursive: true });
  await symlink(path.join(REPO, app, 'node_modules'), path.join(site, app, 'node_modules'), 'dir');
}

const server = spawn(process.execPath, [path.join(REPO, 'api/dist/server.js')], {
  env: { ...process.env, PORT: String(PORT), HOST: '127.0.0.1', SITE_ROOT: site, DATA_DIR: path.join(root, 'data'), LOG_LEVEL: 'warn', RATE_LIMIT_MULTIPLIER: '1000' },
  stdio: ['ignore', 'ignore', 'inherit'],
});
const rssMb = async () => {
  const status = await readFile(`/proc/${server.pid}/status`, 'utf8');
  return Math.round(Number(/VmRSS:\s+(\d+)/.exec(status)[1]) / 1024);
};

for (let i = 0; ; i++) {
  try {
    if ((await fetch(`${base}/api/health/live`)).ok) break;
  } catch {
    if (i > 100) throw new Error('the server did not start');
  }
  await new Promise((r) => setTimeout(r, 200));
}

// Traffic: the blog's pages, four at a time, for as long as the deploys run.
let stop = false;
let requests = 0;
let failures = 0;
const pages = ['/blog', '/', '/blog/category/case-studies', '/blog?q=ai'];
const traffic = Array.from({ length: 4 }, async (_, worker) => {
  for (let n = worker; !stop; n++) {
    try {
      const res = await fetch(`${base}${pages[n % pages.length]}`, { headers: { accept: 'text/html' } });
      await res.arrayBuffer();
      requests++;
      if (res.status >= 500) failures++;
    } catch {
      failures++;
    }
  }
});

const script = (...args) => run(process.execPath, [path.join(REPO, 'scripts/deploy-remote.mjs'), ...args], { env: { ...process.env, SITE_ROOT: site } });

// Warm up: pages rendered, the dist's server entry loaded.
await new Promise((r) => setTimeout(r, 3000));
const start = await rssMb();
console.log(`cycles: ${CYCLES} (deploy a new blog release, roll it back), pages requested all along`);
console.log(`RSS before: ${start} MB`);
const build = path.join(root, 'build');
const started = performance.now();
for (let cycle = 1; cycle <= CYCLES; cycle++) {
  // A new release each time: the same build under a new version, so the server imports its server entry anew.
  await rm(build, { recursive: true, force: true });
  await cp(path.join(REPO, 'mfe-blog/dist'), build, { recursive: true });
  const manifest = JSON.parse(await readFile(path.join(build, 'mfe-manifest.json'), 'utf8'));
  await writeFile(path.join(build, 'mfe-manifest.json'), JSON.stringify({ ...manifest, version: `9.0.${cycle}` }));
  await script('deploy', 'blog', '--from', build);
  for (let i = 0; i < 3; i++) await (await fetch(`${base}/blog`, { headers: { accept: 'text/html' } })).arrayBuffer();
  await script('rollback', 'blog');
  for (let i = 0; i < 3; i++) await (await fetch(`${base}/blog`, { headers: { accept: 'text/html' } })).arrayBuffer();
  if (cycle % 10 === 0) console.log(`RSS after ${cycle} cycles: ${await rssMb()} MB`);
}
stop = true;
await Promise.all(traffic);
await new Promise((r) => setTimeout(r, 3000));
const end = await rssMb();
console.log(`RSS after, settled 3 s: ${end} MB (${end - start >= 0 ? '+' : ''}${end - start} MB, ${((end - start) / CYCLES).toFixed(2)} MB per cycle)`);
console.log(`${requests} page requests, ${failures} failed (5xx or no answer), ${((performance.now() - started) / 1000).toFixed(0)} s`);
server.kill('SIGTERM');
await rm(root, { recursive: true, force: true });
