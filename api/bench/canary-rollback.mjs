// How long a failing canary serves visitors before it is rolled back by itself (issue 34), in real time:
// `node api/bench/canary-rollback.mjs [--percent 50] [--rate 10] [--timeout 120]` (build the API, the shell and the
// remotes first).
//
// Starts `node api/dist/server.js` on a site root of its own (the built dists, copied) and a fresh SQLite DATA_DIR, with
// the default canary settings (checked every RELEASE_CANARY_CHECK_MS = 10 s; each instance adds its counts every 5 s;
// rolled back at >= 2% and >= 3x the served release's rate over >= 50 canary page views). Over HTTP, as a team's CI
// does, it uploads staged a blog release whose server render throws for every page (the built blog, its server entry
// wrapped), and promotes it to --percent of visitors. Then --rate fresh visitors a second (no cookie, a browser's
// User-Agent) open /blog, until the deploy log says `canary_rollback`. It prints when the first failing page was
// served, when the canary had its 50th page view (enough traffic), and when the rollback was seen (the deploy log is
// read every 250 ms), and checks that visitors no longer get the canary. Bounded by --timeout; nothing leaves loopback.
import { execFileSync } from 'node:child_process';
import { cp, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { login, root, startServer } from './bench-kit.mjs';

const { values: args } = parseArgs({
  options: {
    percent: { type: 'string', default: '50' },
    rate: { type: 'string', default: '10' },
    timeout: { type: 'string', default: '120' },
  },
});
const PERCENT = Number(args.percent);
const RATE = Number(args.rate);
const TIMEOUT_S = Number(args.timeout);
if (!(PERCENT >= 1 && PERCENT <= 99) || !(RATE > 0 && RATE <= 200) || !(TIMEOUT_S > 0 && TIMEOUT_S <= 600)) {
  console.error('Usage: node api/bench/canary-rollback.mjs [--percent 1-99] [--rate visitors a second, 1-200] [--timeout s]');
  process.exit(2);
}
const BROWSER_UA = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const PASSWORD = 'canary bench admin password';
const CANARY = 'canary-bench-throws';
const REMOTES = ['marketing', 'analysis', 'blog', 'admin'];

const work = await mkdtemp(path.join(tmpdir(), 'canary-bench-'));
const siteRoot = path.join(work, 'site');
let server;
try {
  for (const dir of ['shell', ...REMOTES.map((r) => `mfe-${r}`)]) {
    await cp(path.join(root, dir, 'dist'), path.join(siteRoot, dir, 'dist'), { recursive: true });
    await symlink(path.join(root, dir, 'node_modules'), path.join(siteRoot, dir, 'node_modules'), 'dir');
  }
  // The canary: the blog as built, its server entry wrapped so that every server render throws.
  const build = path.join(work, 'canary');
  await cp(path.join(root, 'mfe-blog/dist'), build, { recursive: true });
  const manifest = JSON.parse(await readFile(path.join(build, 'mfe-manifest.json'), 'utf8'));
  const entry = manifest.server?.entry;
  if (!entry) throw new Error('mfe-blog/dist names no server entry: build it first');
  const original = `${entry.replace(/\.js$/, '')}-original.js`;
  await cp(path.join(build, entry), path.join(build, original));
  await rm(path.join(build, `${entry}.br`), { force: true });
  await rm(path.join(build, `${entry}.gz`), { force: true });
  await writeFile(
    path.join(build, entry),
    `export * from './${path.basename(original)}';\nexport async function render() {\n  throw new Error('the canary bench release fails on every page');\n}\n`,
  );
  const archive = execFileSync('tar', ['-czf', '-', '-C', build, '.'], { maxBuffer: 64 * 1024 * 1024 });

  // The server.
  server = startServer(
    { PORT: '0', HOST: '127.0.0.1', DATA_DIR: path.join(work, 'data'), SITE_ROOT: siteRoot, ADMIN_PASSWORD: PASSWORD, LOG_LEVEL: 'info', RATE_LIMIT_MULTIPLIER: '100' },
    { built: true },
  );
  const url = await server.url;
  const cookie = await login(url, PASSWORD, url);
  const made = await fetch(`${url}/api/admin/deploy-tokens`, { method: 'POST', headers: { cookie, origin: url, 'content-type': 'application/json' }, body: JSON.stringify({ name: 'canary bench', apps: ['blog'] }) });
  const { token } = await made.json();
  const staged = await fetch(`${url}/api/releases/blog?stage=1&version=${CANARY}`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/gzip' }, body: archive });
  if (staged.status !== 201) throw new Error(`staged upload: ${staged.status} ${await staged.text()}`);

  const blogOf = (html) => JSON.parse(/<script type="application\/json" id="remotes-manifest">([\s\S]*?)<\/script>/.exec(html)?.[1] ?? '{}').blog?.version;
  const served = blogOf(await (await fetch(`${url}/blog`, { headers: { accept: 'text/html' } })).text());
  const promoted = await fetch(`${url}/api/releases/blog/promote`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: JSON.stringify({ version: CANARY, percent: PERCENT }) });
  if (promoted.status !== 200) throw new Error(`promote: ${promoted.status} ${await promoted.text()}`);
  const promotedAt = performance.now();
  console.log(`blog ${CANARY} (its server render throws) promoted to ${PERCENT}% of visitors; ${served} serves the others; ${RATE} fresh visitors a second from now`);

  let firstFailing;
  let enough;
  let canaryPages = 0;
  let pages = 0;
  let rolledBack;
  let rollbackEntry;
  const deadline = promotedAt + TIMEOUT_S * 1000;
  const visit = async () => {
    const res = await fetch(`${url}/blog`, { headers: { accept: 'text/html', 'user-agent': BROWSER_UA } });
    const version = blogOf(await res.text());
    const at = performance.now();
    pages += 1;
    if (version === CANARY && rolledBack === undefined) {
      firstFailing ??= at;
      canaryPages += 1;
      if (canaryPages === 50) enough = at;
    }
  };
  const traffic = setInterval(() => void visit().catch((error) => console.error('a visit failed:', error.message)), 1000 / RATE);
  try {
    while (rolledBack === undefined && performance.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 250));
      const log = await (await fetch(`${url}/api/admin/deploys?app=blog&limit=5`, { headers: { cookie } })).json();
      const entry = log.entries.find((e) => e.action === 'canary_rollback');
      if (entry) {
        rolledBack = performance.now();
        rollbackEntry = entry;
      }
    }
  } finally {
    clearInterval(traffic);
  }
  if (rolledBack === undefined) throw new Error(`no rollback within ${TIMEOUT_S} s (${canaryPages} canary pages of ${pages})`);
  // From now on, nobody gets it.
  let after = 0;
  for (let i = 0; i < 20; i++) if (blogOf(await (await fetch(`${url}/blog`, { headers: { accept: 'text/html' } })).text()) === CANARY) after += 1;

  const s = (ms) => `${(ms / 1000).toFixed(1)} s`;
  console.log(`first failing page served ${s(firstFailing - promotedAt)} after the promotion`);
  console.log(`50th canary page view (enough traffic) ${s(enough - firstFailing)} after the first failing page`);
  console.log(`rolled back (seen in the deploy log) ${s(rolledBack - firstFailing)} after the first failing page, ${s(rolledBack - enough)} after enough traffic; ${canaryPages} canary pages of ${pages} until then`);
  console.log(`deploy log: ${rollbackEntry.by}: ${rollbackEntry.message}`);
  console.log(`after the rollback: ${after} of 20 fresh visitors got the canary`);
} catch (error) {
  console.error(error);
  console.error(`the server said (last 3,000 characters):\n${server?.output().slice(-3000) ?? ''}`);
  process.exitCode = 1;
} finally {
  await server?.stop();
  await rm(work, { recursive: true, force: true });
}
