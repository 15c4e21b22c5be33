// How long a failing canary serves visitors before it is rolled back by itself (issue 34), in real time:
// `node api/bench/canary-rollback.mjs [--percent 50] [--rate 10] [--timeout 120]` (build the API, the shell and the
// remotes first).
//
// Starts `node api/dist/server.js` on a site root of its own (the built dists, copied) and a fresh SQLite DATA_DIR, with
// the default canary settings (checked every RELEASE_CANARY_CHECK_MS = 10 s; each instance adds its counts every 5 s;
// rolled back at >= 2% and >= 3x the served release's rate over >= 50 canary page views, browser errors counting once
// 5 distinct visitors reported them). Over HTTP, as a team's CI does, it uploads staged a blog release that renders on
// the server (so its smoke render passes it) and fails in the browser, where only the browsers can tell, and promotes
// it to --percent of visitors. Then --rate fresh visitors a second, each its own loopback address (no cookie, a
// browser's User-Agent), open /blog, with real, token-carrying reports: a visitor given the canary asks for its page
// load's token (GET /page-token.json, with the cookie the page set) and sends the shell's `remote_error` with it (POST
// /api/events), as the shell's error boundary does. Until the deploy log says `canary_rollback`. It prints when the
// first failing page was served, when the canary had its 50th page view and its 5th reporting visitor, and when the
// rollback was seen (the deploy log is read every 250 ms), and checks that visitors no longer get the canary. Bounded
// by --timeout; nothing leaves loopback.
import { execFileSync } from 'node:child_process';
import { cp, mkdtemp, rm, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { login, root, startServer } from './bench-kit.mjs';
import { blogOf, remoteError, visitor } from './browser-visitor.mjs';

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
const PASSWORD = 'canary bench admin password';
const CANARY = 'canary-bench-crashes';
const REMOTES = ['marketing', 'analysis', 'blog', 'admin'];

const work = await mkdtemp(path.join(tmpdir(), 'canary-bench-'));
const siteRoot = path.join(work, 'site');
let server;
try {
  for (const dir of ['shell', ...REMOTES.map((r) => `mfe-${r}`)]) {
    await cp(path.join(root, dir, 'dist'), path.join(siteRoot, dir, 'dist'), { recursive: true });
    await symlink(path.join(root, dir, 'node_modules'), path.join(siteRoot, dir, 'node_modules'), 'dir');
  }
  // The canary: the blog as built, under another version (what fails is in the browser, which the visitors report).
  const build = path.join(root, 'mfe-blog/dist');
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

  const served = blogOf(await (await fetch(`${url}/blog`, { headers: { accept: 'text/html' } })).text());
  const promoted = await fetch(`${url}/api/releases/blog/promote`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: JSON.stringify({ version: CANARY, percent: PERCENT }) });
  if (promoted.status !== 200) throw new Error(`promote: ${promoted.status} ${await promoted.text()}`);
  const promotedAt = performance.now();
  console.log(
    `blog ${CANARY} (fails in the browser: its visitors report it with their page loads' tokens) promoted to ${PERCENT}% of visitors; ` +
      `${served} serves the others; ${RATE} fresh visitors a second, each its own address, from now`,
  );

  let firstFailing;
  let enough;
  let fifthReporter;
  let canaryPages = 0;
  let reported = 0;
  let pages = 0;
  let rolledBack;
  let rollbackEntry;
  const deadline = promotedAt + TIMEOUT_S * 1000;
  const visit = async () => {
    const i = pages++;
    const v = visitor(url, `127.0.${1 + Math.floor(i / 250) % 250}.${1 + (i % 250)}`);
    const page = await v.open('/blog');
    const at = performance.now();
    if (page.blog !== CANARY || rolledBack !== undefined) return;
    firstFailing ??= at;
    canaryPages += 1;
    if (canaryPages === 50) enough = at;
    // What the shell does when the remote fails: its page load's token, then the report with it.
    const token = await v.pageToken();
    const { recorded } = await v.report([remoteError(CANARY, 'blog', 'TypeError: the canary bench release fails in the browser')], token ?? undefined);
    if (recorded > 0 && ++reported === 5) fifthReporter = performance.now();
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
  console.log(`5th visitor's report counted (enough distinct visitors) ${s(fifthReporter - firstFailing)} after the first failing page; ${reported} reports counted until the rollback`);
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
