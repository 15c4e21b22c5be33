// Search at data size (issue 32): seeds posts and contact messages at 100x of today's data (12,000 posts, 100,000
// messages; --factor scales) with the same kind of text api/bench/data-scale.mjs writes, on SQLite and (with --pg-url)
// PostgreSQL, and times the searches through the repositories: the full-text index (what the API runs) against the
// `LIKE '%…%'` plus count it replaced, p50/p95 of --runs each.
//   node api/bench/run-ts.mjs api/bench/search-scale.entry.ts [--factor 1] [--runs 30] [--pg-url postgres://postgres@127.0.0.1:5432/test]
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { sql, type Kysely } from 'kysely';
import { openDatabase } from '../src/db/database';
import type { Database } from '../src/db/schema';
import { createPostsRepository } from '../src/posts/posts-repository';
import { createLeadsRepository } from '../src/contact/leads-repository';

const { values: args } = parseArgs({
  options: { factor: { type: 'string', default: '1' }, runs: { type: 'string', default: '30' }, 'pg-url': { type: 'string' } },
});
const FACTOR = Number(args.factor);
const RUNS = Number(args.runs);
const POSTS = Math.round(12_000 * FACTOR);
const LEADS = Math.round(100_000 * FACTOR);

const TOPICS = ['scheduling', 'reviews', 'invoicing', 'bookkeeping', 'payroll', 'marketing', 'websites', 'automation', 'inventory', 'reminders', 'chatbots', 'analytics'];
const PLACES = ['Pleasanton', 'Danville', 'San Ramon', 'Walnut Creek', 'Dublin', 'Livermore', 'Concord', 'Lafayette', 'Orinda', 'Alamo'];
const TRADES = ['Dental', 'Salon', 'Bakery', 'Plumbing', 'Law Office', 'Auto Repair', 'Yoga Studio', 'Pet Grooming', 'Cafe', 'Accounting'];
const WORDS =
  'the a small business owner customers team time week money online booking follow-up phone email calendar staff report software tool simple setup cost saves hours every month clients local search results page results growth process workflow spreadsheet'.split(
    ' ',
  );
let seed = 42;
const r = () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648);
const pick = <T>(list: readonly T[]) => list[Math.floor(r() * list.length)]!;
const sentence = (n: number) => Array.from({ length: n }, () => pick(WORDS)).join(' ');
const at = (i: number, n: number) => new Date(Date.parse('2021-01-01T00:00:00Z') + Math.floor((i * 5 * 365 * 86_400_000) / n)).toISOString();

async function fill(db: Kysely<Database>, table: 'blog_posts' | 'contact_messages', n: number, row: (i: number) => Record<string, unknown>) {
  for (let i = 0; i < n; i += 500) {
    const rows = Array.from({ length: Math.min(500, n - i) }, (_, k) => row(i + k));
    await db.transaction().execute((trx) => trx.insertInto(table).values(rows as never).execute());
  }
}

function stats(ms: number[]) {
  const s = [...ms].sort((a, b) => a - b);
  const q = (p: number) => s[Math.min(s.length - 1, Math.floor(p * s.length))]!;
  return `p50 ${q(0.5).toFixed(1).padStart(7)} ms  p95 ${q(0.95).toFixed(1).padStart(7)} ms`;
}

async function time(label: string, run: () => Promise<unknown>) {
  for (let i = 0; i < 3; i++) await run();
  const ms: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const t = performance.now();
    await run();
    ms.push(performance.now() - t);
  }
  console.log(`  ${label.padEnd(58)} ${stats(ms)}`);
}

/** The search this replaced: `lower(col) like '%q%'` on every searched column, and a count of the same. */
async function likeSearch(db: Kysely<Database>, table: 'blog_posts' | 'contact_messages', q: string, extra: string) {
  const cols = table === 'blog_posts' ? ['title', 'excerpt', 'category'] : ['name', 'email', 'company', 'subject', 'message'];
  const pattern = `%${q}%`;
  const text = (s: string) => sql.raw(s.replaceAll('$LIKE', `'${pattern.replace(/'/g, "''")}'`));
  const w = text(`(${cols.map((c) => `lower(coalesce(${c}, '')) like $LIKE`).join(' or ')})${extra}`);
  await Promise.all([
    sql`select id from ${sql.raw(table)} where ${w} order by created_at desc, id limit 25`.execute(db),
    sql`select count(*) from ${sql.raw(table)} where ${w}`.execute(db),
  ]);
}

async function bench(name: string, databaseUrl: string | undefined) {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'search-scale-'));
  const schema = `search_scale_${Date.now().toString(36)}`;
  const handle = await openDatabase({ dataDir, databaseUrl }, databaseUrl ? { pgSchema: schema } : {});
  const db = handle.db;
  try {
    const t0 = performance.now();
    await db.deleteFrom('blog_posts').execute();
    await fill(db, 'blog_posts', POSTS, (i) => {
      const topic = pick(TOPICS);
      const created = at(i, POSTS);
      const published = i % 6 !== 0;
      return {
        id: `post-${i}`, slug: `post-${i}`, title: `${pick(TRADES)} ${topic} in ${pick(PLACES)}: ${sentence(5)}`, excerpt: sentence(25), content: `<p>${sentence(300)}</p>`,
        keywords: '[]', author: 'Owner', category: pick(['AI Automation', 'Case Studies', 'Small Business', 'Marketing']), category_slug: 'c', status: published ? 'published' : 'draft',
        featured_image: null, og_image: null, read_time: 3, views: 0, meta_description: '', source: 'local', published_at: published ? created : null, publish_at: null,
        created_at: created, updated_at: created,
      };
    });
    await fill(db, 'contact_messages', LEADS, (i) => ({
      id: `lead-${i}`, created_at: at(i, LEADS), ip_hash: 'h', user_agent: 'Mozilla/5.0', name: `Visitor ${i}`, email: `visitor${i}@example.com`,
      company: i % 3 === 0 ? `${pick(PLACES)} ${pick(TRADES)}` : null, subject: `Question about ${pick(TOPICS)}`,
      message: `Hello, we are a small ${pick(TRADES).toLowerCase()} in ${pick(PLACES)} and would like help with ${pick(TOPICS)}. ${sentence(24)} Could you tell us what that costs?`,
      mail_status: 'sent', mail_attempts: 1, mail_next_attempt_at: null, mail_last_error: null, mail_sent_at: null, read_at: null, handled_at: null, request_id: null,
    }));
    if (databaseUrl) await sql`analyze`.execute(db);
    console.log(`${name}: ${POSTS} posts, ${LEADS} messages seeded in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
    const posts = createPostsRepository(db);
    const leads = createLeadsRepository(db);
    for (const q of ['scheduling', 'visitor4242', 'pleasanton dental', 'autom']) {
      await time(`GET /api/posts?q=${q} (index, newest first)`, () => posts.page({ status: 'published', q }, { limit: 12 }));
      await time(`GET /api/admin/posts?q=${q} (index, ranked)`, () => posts.ranked({ q }, 50));
      await time(`GET /api/admin/posts?q=${q} (LIKE, before)`, () => likeSearch(db, 'blog_posts', q.split(' ')[0]!, ''));
      await time(`GET /api/admin/leads?q=${q} (index, ranked)`, () => leads.page({ q, filter: 'all', offset: 0, limit: 25 }));
      await time(`GET /api/admin/leads?q=${q} (LIKE, before)`, () => likeSearch(db, 'contact_messages', q.split(' ')[0]!, ''));
    }
  } finally {
    if (databaseUrl) await sql`drop schema if exists ${sql.id(schema)} cascade`.execute(db);
    await handle.close();
    await rm(dataDir, { recursive: true, force: true });
  }
}

await bench('sqlite', undefined);
if (args['pg-url']) await bench('postgres', args['pg-url']);
