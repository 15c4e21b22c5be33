// Publish delay of scheduled posts (issue 23), over loopback against the built server
// (`npx pnpm@10.34.9 --filter api build` first): `node api/bench/schedule-delay.mjs [--posts 20] [--instances 1|2]`.
//
// Starts `node api/dist/server.js` (a fresh SQLite DATA_DIR, or with --instances 2 two servers on the PostgreSQL at
// DATABASE_URL, in a schema of their own), creates N drafts through the admin API, schedules each a few seconds ahead
// (a different second each, alternating between the instances), then reads every post's public API every 50 ms
// from each instance until it answers 200. It prints, over the N posts: the delay from the scheduled time to the
// publish write (the server's `post.published` line, `delayMs`) and to the first public answer seen on each instance
// (p50 and max), and checks each post was published once (one `post.published` line, one publish revision).
// Bounded: it stops after the last post plus 60 s; nothing leaves loopback.
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { startServer } from './bench-kit.mjs';

const { values: args } = parseArgs({ options: { posts: { type: 'string', default: '20' }, instances: { type: 'string', default: '1' } } });
const POSTS = Number(args.posts);
const INSTANCES = Number(args.instances);
if (!Number.isInteger(POSTS) || POSTS < 1 || POSTS > 200 || ![1, 2].includes(INSTANCES)) {
  console.error('Usage: node api/bench/schedule-delay.mjs [--posts 1-200] [--instances 1|2]');
  process.exit(2);
}
if (INSTANCES === 2 && !process.env.DATABASE_URL) {
  console.error('Two instances share a PostgreSQL database: set DATABASE_URL (e.g. postgres://postgres@127.0.0.1:5432/test).');
  process.exit(2);
}

const PASSWORD = 'schedule-bench admin password';


const dataDir = await mkdtemp(path.join(tmpdir(), 'schedule-bench-'));
const schema = `bench_${randomBytes(4).toString('hex')}`;
const databaseUrl = INSTANCES === 2 ? `${process.env.DATABASE_URL}${process.env.DATABASE_URL.includes('?') ? '&' : '?'}options=-c%20search_path%3D${schema}` : undefined;
if (databaseUrl) {
  const pg = (await import('pg')).default;
  const client = new pg.Client({ connectionString: process.env.DATABASE_URL });
  await client.connect();
  await client.query(`create schema "${schema}"`);
  await client.end();
}
const ORIGIN = 'http://127.0.0.1';
const env = {
  HOST: '127.0.0.1',
  PORT: '0',
  DATA_DIR: dataDir,
  SITE_ROOT: dataDir,
  ADMIN_PASSWORD: PASSWORD,
  PUBLIC_ORIGIN: ORIGIN,
  LOG_LEVEL: 'info',
  RATE_LIMIT_MULTIPLIER: '100',
  ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
};
const started = () => startServer(env, { built: true, timeoutMs: 20_000, outputLimit: Infinity });
const servers = [started()];
await servers[0].url;
if (INSTANCES === 2) servers.push(started());
const urls = await Promise.all(servers.map((s) => s.url));

try {
  const login = await fetch(`${urls[0]}/api/admin/login`, { method: 'POST', headers: { 'content-type': 'application/json', origin: ORIGIN }, body: JSON.stringify({ password: PASSWORD }) });
  const cookie = login.headers.get('set-cookie').split(';')[0];
  const admin = async (url, p, method = 'GET', body) => {
    const res = await fetch(`${url}${p}`, { method, headers: { cookie, origin: ORIGIN, ...(body ? { 'content-type': 'application/json' } : {}) }, body: body && JSON.stringify(body) });
    if (!res.ok) throw new Error(`${method} ${p}: ${res.status} ${await res.text()}`);
    return res.json();
  };

  const first = Math.ceil((Date.now() + 5_000) / 1000) * 1000;
  const posts = [];
  for (let i = 0; i < POSTS; i++) {
    const url = urls[i % urls.length];
    const post = await admin(url, '/api/admin/posts', 'POST', {
      title: `Scheduled bench post ${i + 1}`,
      excerpt: 'A post scheduled by the benchmark of publish delays.',
      content: `<p>${'Words of a post that the benchmark schedules and then watches for. '.repeat(3)}</p>`,
      author: 'Bench',
      category: 'AI Automation',
      metaDescription: 'A post scheduled by the benchmark, to measure how soon after its time it is public.',
    });
    const at = new Date(first + Math.floor((i * 10_000) / POSTS)).toISOString();
    await admin(urls[(i + 1) % urls.length], `/api/admin/posts/${post.id}/schedule`, 'POST', { publishAt: at });
    posts.push({ id: post.id, slug: post.slug, at: Date.parse(at), seen: urls.map(() => undefined) });
  }
  console.log(`${POSTS} posts scheduled between ${new Date(first).toISOString()} and ${new Date(posts.at(-1).at).toISOString()} on ${INSTANCES} instance(s)`);

  const deadline = posts.at(-1).at + 60_000;
  while (posts.some((p) => p.seen.some((s) => s === undefined)) && Date.now() < deadline) {
    await Promise.all(
      posts.flatMap((p) =>
        urls.map(async (url, k) => {
          if (p.seen[k] !== undefined || Date.now() < p.at - 1_000) return;
          const res = await fetch(`${url}/api/posts/${p.slug}`);
          await res.arrayBuffer();
          if (res.status === 200) p.seen[k] = Date.now();
        }),
      ),
    );
    await new Promise((r) => setTimeout(r, 50));
  }

  const lines = servers
    .flatMap((s) => s.output().split('\n'))
    .filter((l) => l.includes('"msg":"post.published"'))
    .map((l) => JSON.parse(l));
  const pct = (values, q) => {
    const sorted = [...values].sort((a, b) => a - b);
    return sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)];
  };
  const row = (label, values) => console.log(`${label.padEnd(56)} p50 ${String(pct(values, 0.5)).padStart(6)} ms   max ${String(Math.max(...values)).padStart(6)} ms`);
  row('scheduled time -> publish write (server)', lines.map((l) => l.delayMs));
  urls.forEach((_, k) => row(`scheduled time -> public on instance ${k + 1} (50 ms polls)`, posts.map((p) => (p.seen[k] ?? Infinity) - p.at)));
  let duplicates = 0;
  for (const p of posts) {
    const published = lines.filter((l) => l.postId === p.id).length;
    const revisions = (await admin(urls[0], `/api/admin/posts/${p.id}/revisions`)).revisions.filter((r) => r.action === 'publish').length;
    if (published !== 1 || revisions !== 1) duplicates++;
  }
  console.log(`published exactly once: ${POSTS - duplicates} of ${POSTS} (one post.published line and one publish revision each)`);
  if (duplicates > 0 || posts.some((p) => p.seen.some((s) => s === undefined))) process.exitCode = 1;
} finally {
  for (const s of servers) s.child.kill('SIGTERM');
  await Promise.all(servers.map((s) => new Promise((r) => s.child.once('exit', r))));
  await rm(dataDir, { recursive: true, force: true });
  if (databaseUrl) {
    const pg = (await import('pg')).default;
    const client = new pg.Client({ connectionString: process.env.DATABASE_URL });
    await client.connect();
    await client.query(`drop schema if exists "${schema}" cascade`);
    await client.end();
  }
}
