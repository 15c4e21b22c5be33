// Forged browser reports against a running canary (issue 51, item 6): `node api/bench/forged-reports.mjs [--source]`
// (build the API, the shell and the remotes first; `--source` runs the API from its sources instead of api/dist).
//
// Starts the server on a site root of its own (the built dists, copied) and a fresh SQLite DATA_DIR, with the canary
// checked every second (RELEASE_CANARY_CHECK_MS=1000) and every other setting at its default. Over HTTP, as a team's CI
// does, it stages a healthy blog release and promotes it to 10% of visitors, then sends real traffic (fresh visitors,
// each its own loopback address, opening /blog) until the canary has had 60 page views, so that the counts are ones
// a decision could be taken on. Then an attacker (a browser's User-Agent and this site's Origin, as the issue's script;
// one loopback address per kind, so that POST /api/events' own limit of 120 a minute does not hide what the page-view
// tokens do) sends, kind by kind, reports of a `remote_error` and a `remote_view` against the canary's and the served
// release:
//   (a) without a page-view token;
//   (b) with made-up tokens (random text; a real token's payload re-signed by nobody, naming the canary);
//   (c) with a real token issued for the other release (a visitor the split kept on the served release);
//   (d) with one real canary token, replayed 100 times;
//   (e) the issue's 16 requests (20 `remote_error` of the canary each, no token), then the same 16 each with a fresh
//       real canary token (the attacker kept the canary's bucket cookie);
// then asks /page-token.json past its limit, and at last (f) adds distinct addresses, one report with a real canary
// token each, until the canary is rolled back: what the rule asks before browser errors decide. After each kind it
// prints how many reports moved a count (the answers' `recorded`, checked against the admin's counts), how many
// requests were answered 429, the canary's figures, /api/health's status and whether the canary is still running.
// Nothing leaves loopback.
import { execFileSync } from 'node:child_process';
import { cp, mkdtemp, rm, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { parseArgs } from 'node:util';
import { login, root, startServer } from './bench-kit.mjs';
import { releasesOf, remoteError, remoteView, visitor } from './browser-visitor.mjs';

const { values: args } = parseArgs({ options: { source: { type: 'boolean', default: false } } });
const PASSWORD = 'forged reports bench admin password';
const CANARY = 'forged-bench-canary';
const REMOTES = ['marketing', 'analysis', 'blog', 'admin'];

const work = await mkdtemp(path.join(tmpdir(), 'forged-reports-'));
const siteRoot = path.join(work, 'site');
let server;
try {
  for (const dir of ['shell', ...REMOTES.map((r) => `mfe-${r}`)]) {
    await cp(path.join(root, dir, 'dist'), path.join(siteRoot, dir, 'dist'), { recursive: true });
    await symlink(path.join(root, dir, 'node_modules'), path.join(siteRoot, dir, 'node_modules'), 'dir');
  }
  // The canary: the blog as built, a healthy release under another version.
  const archive = execFileSync('tar', ['-czf', '-', '-C', path.join(root, 'mfe-blog/dist'), '.'], { maxBuffer: 64 * 1024 * 1024 });

  server = startServer(
    { PORT: '0', HOST: '127.0.0.1', DATA_DIR: path.join(work, 'data'), SITE_ROOT: siteRoot, ADMIN_PASSWORD: PASSWORD, LOG_LEVEL: 'warn', RELEASE_CANARY_CHECK_MS: '1000' },
    { built: !args.source },
  );
  const url = await server.url;
  const cookie = await login(url, PASSWORD, url);
  const admin = async (pathname) => (await fetch(`${url}${pathname}`, { headers: { cookie } })).json();
  const made = await fetch(`${url}/api/admin/deploy-tokens`, { method: 'POST', headers: { cookie, origin: url, 'content-type': 'application/json' }, body: JSON.stringify({ name: 'forged reports bench', apps: ['blog'] }) });
  const { token } = await made.json();
  const staged = await fetch(`${url}/api/releases/blog?stage=1&version=${CANARY}`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/gzip' }, body: archive });
  if (staged.status !== 201) throw new Error(`staged upload: ${staged.status} ${await staged.text()}`);
  const promoted = await fetch(`${url}/api/releases/blog/promote`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: JSON.stringify({ version: CANARY, percent: 10 }) });
  if (promoted.status !== 200) throw new Error(`promote: ${promoted.status} ${await promoted.text()}`);

  // Real traffic: fresh visitors, each its own address, 8 at a time, until the canary has had 60 page views.
  let canaryViews = 0;
  let servedVisitor;
  let served;
  let n = 0;
  const started = performance.now();
  while (canaryViews < 60) {
    await Promise.all(
      Array.from({ length: 8 }, async () => {
        const i = n++;
        const v = visitor(url, `127.0.${1 + Math.floor(i / 250)}.${1 + (i % 250)}`);
        const page = await v.open('/blog');
        if (page.status !== 200) throw new Error(`a visitor's /blog: ${page.status}`);
        if (page.blog === CANARY) canaryViews += 1;
        else {
          served ??= page.blog;
          servedVisitor ??= v;
        }
      }),
    );
  }
  console.log(`blog ${CANARY} (healthy) at 10% of visitors, ${served} served to the others; ${n} real visitors in ${((performance.now() - started) / 1000).toFixed(1)} s gave the canary ${canaryViews} page views`);

  const figures = async () => {
    const { releases } = await admin('/api/admin/release-errors');
    const of = (release) => releases.find((r) => r.app === 'blog' && r.release === release)?.window ?? { pageViews: 0, clientErrors: 0, clientReporters: 0, rate: null };
    const log = await admin('/api/admin/deploys?app=blog&limit=10');
    const health = await (await fetch(`${url}/api/health`)).json();
    return { canary: of(CANARY), served: of(served), running: (log.canaries ?? []).length > 0, rolledBack: log.entries.find((e) => e.action === 'canary_rollback'), health: health.status };
  };
  const moved = (a, b) => b.canary.pageViews + b.canary.clientErrors + b.served.pageViews + b.served.clientErrors - (a.canary.pageViews + a.canary.clientErrors + a.served.pageViews + a.served.clientErrors);
  const rate = (r) => (r === null ? '-' : `${Math.round(r * 1000) / 10}%`);
  let last = await figures();
  console.log(`before: health ${last.health}; canary ${last.canary.pageViews} page views, ${last.canary.clientErrors} browser errors, rate ${rate(last.canary.rate)}; served ${last.served.pageViews} page views`);
  console.log('');
  console.log(`${'kind'.padEnd(58)}requests   429  reports  accepted  counts moved  canary errors (visitors)  rate    health    canary`);

  const both = () => [remoteError(CANARY), remoteView(CANARY), remoteError(served), remoteView(served)];
  const row = async (kind, send) => {
    const t = performance.now();
    const { requests, reports, accepted, limited = 0 } = await send();
    // The canary check runs every second; the health answer reads the counts at once.
    await sleep(2500);
    const now = await figures();
    const c = now.canary;
    console.log(
      `${kind.padEnd(58)}${String(requests).padStart(8)}${String(limited).padStart(6)}${String(reports).padStart(9)}${String(accepted).padStart(10)}${String(moved(last, now)).padStart(14)}` +
        `${`${c.clientErrors} (${c.clientReporters ?? 0})`.padStart(26)}  ${rate(c.rate).padEnd(7)} ${now.health.padEnd(9)} ${now.running ? 'running' : now.rolledBack ? 'ROLLED BACK' : 'ended'}  (${((performance.now() - t) / 1000).toFixed(1)} s)`,
    );
    last = now;
    return now;
  };
  const repeat = async (attacker, times, events, token) => {
    let accepted = 0;
    let limited = 0;
    for (let i = 0; i < times; i++) {
      const answer = await attacker.report(events(), token);
      accepted += answer.recorded;
      if (answer.status === 429) limited += 1;
    }
    return { requests: times, reports: times * events().length, accepted, limited };
  };
  /** A visitor at `address` that lands in the canary (fresh buckets until one falls in its 10%) and keeps its cookie. */
  const inCanary = async (address) => {
    const v = visitor(url, address);
    for (let i = 0; i < 100; i++) {
      v.jar.clear();
      const t = await v.pageToken();
      if (t && releasesOf(t).blog === CANARY) return { v, token: t };
    }
    throw new Error(`${address}: no canary token in 100 tries`);
  };

  await row('(a) no page-view token', () => repeat(visitor(url, '127.0.0.61'), 20, both));
  const real = await servedVisitor.pageToken();
  const [payload] = real.split('.');
  const forged = `${Buffer.from(JSON.stringify({ ...JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')), r: { blog: CANARY } })).toString('base64url')}.${'A'.repeat(43)}`;
  await row('(b) made-up tokens (random; a re-written payload)', async () => {
    const attacker = visitor(url, '127.0.0.62');
    const one = await repeat(attacker, 10, both, 'bm90LWEtdG9rZW4.bm90LXNpZ25lZA');
    const two = await repeat(attacker, 10, both, forged);
    return { requests: 20, reports: one.reports + two.reports, accepted: one.accepted + two.accepted, limited: one.limited + two.limited };
  });
  if (releasesOf(real).blog !== served) throw new Error('the served visitor was given a token for another release');
  await row('(c) a real token for the served release, canary reports', () => repeat(visitor(url, '127.0.0.63'), 20, () => [remoteError(CANARY), remoteView(CANARY)], real));
  const replayer = await inCanary('127.0.0.64');
  await row('(d) one real canary token, replayed 100 times', () => repeat(replayer.v, 100, both, replayer.token));
  await row("(e) the issue's 16 requests (20 errors each, no token)", () => repeat(visitor(url, '127.0.0.65'), 16, () => Array.from({ length: 20 }, () => remoteError(CANARY))));
  const collector = await inCanary('127.0.0.66');
  await row('(e) the same 16, each with a fresh real canary token', async () => {
    let accepted = 0;
    let limited = 0;
    for (let i = 0; i < 16; i++) {
      const answer = await collector.v.report(Array.from({ length: 20 }, () => remoteError(CANARY)), await collector.v.pageToken());
      accepted += answer.recorded;
      if (answer.status === 429) limited += 1;
    }
    return { requests: 16 + 16, reports: 16 * 20, accepted, limited };
  });
  // Past its limit: the token endpoint itself (120 a minute per address).
  let refused = 0;
  for (let i = 0; i < 130; i++) if ((await collector.v.pageToken()) === null) refused += 1;
  console.log(`    GET /page-token.json: ${refused} of 130 more asked for from that address in this minute answered 429`);

  // What it takes: distinct addresses, each a page load's real token, until the canary goes.
  let added = 0;
  let now = last;
  const t = performance.now();
  while (now.running && added < 20) {
    const other = await inCanary(`127.0.0.${70 + added}`);
    await other.v.report([remoteError(CANARY)], other.token);
    added += 1;
    await sleep(2500);
    now = await figures();
  }
  console.log(
    `(f) distinct addresses added, one real canary token each: ${added}; then ${now.canary.clientErrors} browser errors from ${now.canary.clientReporters} visitors, ` +
      `health ${now.health}, canary ${now.running ? 'running' : now.rolledBack ? 'ROLLED BACK' : 'ended'} (${((performance.now() - t) / 1000).toFixed(1)} s)`,
  );
  if (now.rolledBack) console.log(`deploy log: ${now.rolledBack.by}: ${now.rolledBack.message}`);
} catch (error) {
  console.error(error);
  console.error(`the server said (last 3,000 characters):\n${server?.output().slice(-3000) ?? ''}`);
  process.exitCode = 1;
} finally {
  await server?.stop();
  await rm(work, { recursive: true, force: true });
}
