import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql, type Kysely } from 'kysely';
import { ADMIN_ENV, adminCookie } from '../../test-support/admin-session';
import { testBackends, uniqueSchema } from '../../test-support/databases';
import { startTestServer, type TestServer } from '../../test-support/test-server';
import { createPostsRepository, type StoredPost } from '../../posts/posts-repository';
import type { ContactMessagesTable } from '../../contact/contact-schema';
import { leadRow } from '../../test-support/lead-rows';
import { postMatches } from '@site/contracts/posts-rules';
import { searchWords } from '@site/contracts/search-rules';
import { bestInIndexQuery, bestOfWindowQuery, ftsMatch, newestWindow, SEARCH_RANK_LIMIT, textSearch, tsQuery, type RankedRows } from '../full-text-search';
import type { Database } from '../schema';

/*
 * Search goes through the database's full-text index (migrations/0017-search.ts: FTS5 on SQLite, GIN on PostgreSQL),
 * kept in step by the database on every write, so its cost does not grow with every row. These tests drive the real
 * endpoints.
 */

describe('search words', () => {
  it('split on every character that is not a letter or a digit, lower case, never query syntax', () => {
    expect(searchWords('  Jane@Example.com  ')).toEqual(['jane', 'example', 'com']);
    expect(searchWords('"autom* OR NEAR( -x :y')).toEqual(['autom', 'or', 'near', 'x', 'y']);
    expect(searchWords('Müller’s café')).toEqual(['müller', 's', 'café']);
    expect(searchWords('"*-:()')).toEqual([]);
    expect(ftsMatch(['dental', 'autom'])).toBe('"dental" "autom"*');
    expect(tsQuery(['dental', 'autom'])).toBe("'dental' & 'autom':*");
  });
});

const T0 = Date.parse('2026-03-01T00:00:00.000Z');
const at = (minutes: number) => new Date(T0 + minutes * 60_000).toISOString();

function post(n: number, fields: Partial<StoredPost>): StoredPost {
  return {
    id: `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`,
    slug: `post-${n}`,
    title: `Post ${n}`,
    excerpt: 'An excerpt.',
    content: '<p>Body text nobody searches: zeppelin.</p>',
    keywords: [],
    author: 'Owner',
    category: 'Business',
    categorySlug: 'business',
    status: 'published',
    featuredImage: null,
    ogImage: null,
    readTime: 1,
    views: 0,
    metaDescription: '',
    source: 'local',
    publishedAt: at(n),
    publishAt: null,
    createdAt: at(n),
    updatedAt: at(n),
    ...fields,
  };
}

function lead(n: number, fields: Partial<ContactMessagesTable>): ContactMessagesTable {
  return leadRow(n, { id: `lead-${n}`, created_at: at(n), ...fields });
}

describe.each(testBackends().map((b) => b.name))('search through the full-text index (%s)', (backend) => {
  let server: TestServer;
  let cookie: string;
  let db: Kysely<Database>;
  const schema = uniqueSchema();
  const posts = createPostsRepository;

  beforeAll(async () => {
    server = await startTestServer({
      env: { ...ADMIN_ENV, ...(backend === 'postgres' ? { DATABASE_URL: process.env.TEST_DATABASE_URL } : {}) },
      deps: backend === 'postgres' ? { database: { pgSchema: schema } } : {},
    });
    cookie = await adminCookie(server);
    db = server.instance.db;
    const repo = posts(db);
    // The seeded demo posts go (their words would be found too); the triggers take them out of the index as well.
    await db.deleteFrom('blog_posts').execute();
    const seed = [
      post(1, { title: 'Marketing automation for dentists', excerpt: 'Reminders that fill the calendar.', category: 'AI Automation', categorySlug: 'ai-automation' }),
      post(2, { title: 'Ten tips for a faster website', excerpt: 'Images, caching and a dental example.' }),
      post(3, { title: 'Why local SEO matters', excerpt: 'Automation is mentioned only here, in the excerpt.' }),
      post(4, { title: 'A draft about automation', status: 'draft', publishedAt: null }),
      ...Array.from({ length: 40 }, (_, i) => post(100 + i, { title: `Filler post number ${i}`, excerpt: 'Nothing to see.' })),
    ];
    for (const p of seed) expect(await repo.insert(p)).toBe(true);
    await db
      .insertInto('contact_messages')
      .values([
        lead(1, { name: 'Jane Doe', email: 'jd.office@tri-valley.example', company: 'Tri Valley Dental', subject: 'Reminders', message: 'We need appointment reminders.' }),
        lead(2, { name: 'Bob Stone', email: 'bob@stone.example', subject: 'Website', message: 'Our dental practice needs a new website.' }),
        lead(3, { name: 'Carla Dental', email: 'carla@example.org', message: 'Question about pricing.' }),
        ...Array.from({ length: 40 }, (_, i) => lead(100 + i, {})),
      ])
      .execute();
  }, 60_000);
  afterAll(async () => {
    if (!server) return;
    await server.close();
  });

  async function get<T>(path: string, admin = false): Promise<{ status: number; body: T }> {
    const res = await fetch(`${server.url}${path}`, { headers: admin ? { cookie } : {} });
    return { status: res.status, body: (await res.json()) as T };
  }
  const publicTitles = async (q: string) => {
    const res = await get<{ posts: Array<{ title: string }>; total: number }>(`/api/posts?limit=50&q=${encodeURIComponent(q)}`);
    expect(res.status).toBe(200);
    return { titles: res.body.posts.map((p) => p.title), total: res.body.total };
  };
  const adminTitles = async (q: string) => {
    const res = await get<{ posts: Array<{ title: string }>; total: number }>(`/api/admin/posts?limit=100&q=${encodeURIComponent(q)}`, true);
    expect(res.status).toBe(200);
    return { titles: res.body.posts.map((p) => p.title), total: res.body.total };
  };
  const leadNames = async (q: string) => {
    const res = await get<{ leads: Array<{ name: string }>; total: number }>(`/api/admin/leads?limit=100&q=${encodeURIComponent(q)}`, true);
    expect(res.status).toBe(200);
    return { names: res.body.leads.map((l) => l.name), total: res.body.total };
  };

  it('finds posts by a word, by the start of the last word, by words in different fields; not by text a post lacks', async () => {
    expect(await publicTitles('dentists')).toEqual({ titles: ['Marketing automation for dentists'], total: 1 });
    expect(await publicTitles('DENTISTS')).toEqual({ titles: ['Marketing automation for dentists'], total: 1 });
    // The public list keeps its order (newest first) and only uses the index for matching; the draft is not public.
    expect(await publicTitles('autom')).toEqual({ titles: ['Why local SEO matters', 'Marketing automation for dentists'], total: 2 });
    // Words in different fields (title and excerpt; title and category), every word must match.
    expect(await publicTitles('faster dental')).toEqual({ titles: ['Ten tips for a faster website'], total: 1 });
    expect(await publicTitles('dentists ai')).toEqual({ titles: ['Marketing automation for dentists'], total: 1 });
    expect(await publicTitles('faster dentists')).toEqual({ titles: [], total: 0 });
    // Not the article body (never searched), not a word nobody wrote, not the middle of a word.
    expect(await publicTitles('zeppelin')).toEqual({ titles: [], total: 0 });
    expect(await publicTitles('quantum')).toEqual({ titles: [], total: 0 });
    expect(await publicTitles('tomation')).toEqual({ titles: [], total: 0 });
  });

  it('answers what the shared rule (postMatches, the test fakes\' search) says, for any of these searches', async () => {
    const all = await posts(db).list({ status: 'published' });
    for (const q of ['autom', 'automation dent', 'ai', 'images caching', 'an excerpt', 'filler post number 1', 'SEO', 'x', '"*']) {
      const expected = all.filter((p) => postMatches(p, q)).map((p) => p.title);
      expect((await publicTitles(q)).titles, q).toEqual(expected);
    }
  });

  it('ranks the admin search best match first (a title match before an excerpt match) and counts the matches only', async () => {
    const found = await adminTitles('automation');
    expect(found.total).toBe(3);
    expect(found.titles.slice(0, 2).sort()).toEqual(['A draft about automation', 'Marketing automation for dentists']);
    expect(found.titles[2]).toBe('Why local SEO matters');
    // Keyset pages of the public list under a search still hold every match once.
    const first = await get<{ posts: Array<{ title: string }>; total: number; nextCursor: string | null }>('/api/posts?limit=1&q=autom');
    expect(first.body.total).toBe(2);
    const second = await get<{ posts: Array<{ title: string }>; nextCursor: string | null }>(
      `/api/posts?limit=1&q=autom&cursor=${encodeURIComponent(first.body.nextCursor ?? '')}`,
    );
    expect([...first.body.posts, ...second.body.posts].map((p) => p.title)).toEqual(['Why local SEO matters', 'Marketing automation for dentists']);
    expect(second.body.nextCursor).toBeNull();
  });

  it('finds leads by name, by an email address (whole or in part), by words in different fields; ranks the name first', async () => {
    expect(await leadNames('jd.office@tri-valley.example')).toEqual({ names: ['Jane Doe'], total: 1 });
    expect(await leadNames('tri-vall')).toEqual({ names: ['Jane Doe'], total: 1 });
    expect(await leadNames('jane reminders')).toEqual({ names: ['Jane Doe'], total: 1 });
    expect(await leadNames('stone website')).toEqual({ names: ['Bob Stone'], total: 1 });
    expect(await leadNames('helicopter')).toEqual({ names: [], total: 0 });
    // "dental" is Carla's name (weight A), Jane's company (B) and Bob's message (C): best match first, not newest first.
    expect(await leadNames('dental')).toEqual({ names: ['Carla Dental', 'Jane Doe', 'Bob Stone'], total: 3 });
    // The export uses the same index and keeps its order (newest first).
    const csv = await fetch(`${server.url}/api/admin/leads/export.csv?q=dental`, { headers: { cookie } });
    expect(csv.status).toBe(200);
    const lines = (await csv.text()).split('\n').filter((l) => /Dental|Stone|Doe/.test(l) && !l.startsWith('\uFEFF'));
    expect(lines.map((l) => /Carla Dental|Jane Doe|Bob Stone/.exec(l)?.[0])).toEqual(['Carla Dental', 'Bob Stone', 'Jane Doe']);
  });

  it('answers 200 to query syntax characters, never an error: they are separators, words stay words', async () => {
    for (const q of ['"', '"unterminated', '*', 'autom*', 'OR', 'dentists OR', 'NEAR(', 'NEAR(a b)', '-', '-dentists', ':', 'title:dentists', "it's", '(', 'a & b | !c', "'"]) {
      const pub = await get<{ total: number }>(`/api/posts?q=${encodeURIComponent(q)}`);
      expect(pub.status, q).toBe(200);
      const adm = await get<{ total: number }>(`/api/admin/posts?q=${encodeURIComponent(q)}`, true);
      expect(adm.status, q).toBe(200);
      const leads = await get<{ total: number }>(`/api/admin/leads?q=${encodeURIComponent(q)}`, true);
      expect(leads.status, q).toBe(200);
    }
    // Syntax characters around a word are only separators: the word is searched.
    expect((await publicTitles('"dentists"')).titles).toEqual(['Marketing automation for dentists']);
    expect((await publicTitles('-dentists')).titles).toEqual(['Marketing automation for dentists']);
    expect((await publicTitles('title:dentists')).titles).toEqual([]);
    // Text without a word matches nothing.
    expect(await publicTitles('"*-:')).toEqual({ titles: [], total: 0 });
  });

  it('keeps the index in step: an edited post or lead is found by its new words only, a deleted post is gone', async () => {
    const repo = posts(db);
    const before = await repo.findById(post(2, {}).id);
    expect(before).toBeDefined();
    expect(await repo.update({ ...before!, title: 'Ten tips for a quicker storefront', updatedAt: at(500) })).toBe(true);
    expect((await publicTitles('storefront')).titles).toEqual(['Ten tips for a quicker storefront']);
    expect((await publicTitles('faster')).titles).toEqual([]);
    // A write that leaves the searched fields alone keeps the post findable.
    expect(await repo.incrementViews('post-2')).toBe(1);
    expect((await publicTitles('quicker')).titles).toEqual(['Ten tips for a quicker storefront']);

    expect(await repo.delete(post(1, {}).id)).toBe(true);
    expect(await publicTitles('dentists')).toEqual({ titles: [], total: 0 });
    expect((await adminTitles('automation')).total).toBe(2);

    await db.updateTable('contact_messages').set({ name: 'Priya Patel', company: null }).where('id', '=', 'lead-1').execute();
    expect(await leadNames('priya')).toEqual({ names: ['Priya Patel'], total: 1 });
    expect(await leadNames('jane')).toEqual({ names: [], total: 0 });
    expect(await leadNames('doe')).toEqual({ names: [], total: 0 });
    expect((await leadNames('valley')).names).toEqual(['Priya Patel']); // still in the email address
    expect(await leadNames('dental')).toEqual({ names: ['Carla Dental', 'Bob Stone'], total: 2 });
    await db.deleteFrom('contact_messages').where('id', '=', 'lead-3').execute();
    expect(await leadNames('carla')).toEqual({ names: [], total: 0 });
  });

  it('ranks the newest SEARCH_RANK_LIMIT matches only, and counts them up to there: past it the total says "at least"', async () => {
    // The best match (the word in the name) is the oldest; SEARCH_RANK_LIMIT + 4 newer leads have it in their message
    // only, and one of the newest 10 in its company (B): it ranks first, the old name match is past the ranked window.
    const rows = [
      lead(5_000, { name: 'Quokka Quokka', message: 'quokka quokka quokka' }),
      ...Array.from({ length: SEARCH_RANK_LIMIT + 4 }, (_, i) => lead(6_000 + i, { message: `About the quokka, number ${i}.`, ...(i === SEARCH_RANK_LIMIT - 5 ? { company: 'Quokka Works' } : {}) })),
    ];
    for (let i = 0; i < rows.length; i += 200) await db.insertInto('contact_messages').values(rows.slice(i, i + 200)).execute();
    type Found = { leads: Array<{ name: string; company: string | null }>; total: number; totalIsLowerBound?: boolean };
    const found = await get<Found>('/api/admin/leads?limit=5&q=quokka', true);
    expect(found.status).toBe(200);
    // 1,005 match: the count stopped at SEARCH_RANK_LIMIT and says there are more.
    expect(found.body).toMatchObject({ total: SEARCH_RANK_LIMIT, totalIsLowerBound: true });
    expect(found.body.leads).toHaveLength(5);
    expect(found.body.leads[0]!.company).toBe('Quokka Works');
    expect(found.body.leads.map((l) => l.name)).not.toContain('Quokka Quokka');
    // Exactly SEARCH_RANK_LIMIT matches: an exact count.
    await db.deleteFrom('contact_messages').where('id', 'in', ['lead-6000', 'lead-6001', 'lead-6002', 'lead-6003', 'lead-6004']).execute();
    expect((await get<Found>('/api/admin/leads?limit=5&q=quokka', true)).body).toMatchObject({ total: SEARCH_RANK_LIMIT, totalIsLowerBound: false });
    // With a filter, the count is the filter's; a filter whose matches are all old still finds them.
    await db.updateTable('contact_messages').set({ handled_at: at(9_000) }).where('id', '=', 'lead-5000').execute();
    const handled = await get<Found>('/api/admin/leads?limit=5&q=quokka&filter=handled', true);
    expect(handled.body).toMatchObject({ total: 1, totalIsLowerBound: false, leads: [{ name: 'Quokka Quokka' }] });
    // Without search text there is no lower bound: the kept counters are exact.
    expect((await get<Found>('/api/admin/leads?limit=5', true)).body.totalIsLowerBound).toBeUndefined();
    await db.deleteFrom('contact_messages').where('message', 'like', '%quokka%').execute();
  });

  it('counts a post search up to SEARCH_RANK_LIMIT matches: the public list and the admin search say when more match', async () => {
    // SEARCH_RANK_LIMIT + 1 published posts and 2 drafts have "pangolin" in their title.
    const rows = Array.from({ length: SEARCH_RANK_LIMIT + 3 }, (_, i) => {
      const published = i >= 2;
      return {
        id: `00000000-0000-4000-9000-${String(i).padStart(12, '0')}`, slug: `pangolin-${i}`, title: `Pangolin notes ${i}`, excerpt: 'An excerpt.', content: '<p>Body.</p>',
        keywords: '[]', author: 'Owner', category: 'Business', category_slug: 'business', status: published ? 'published' : 'draft', featured_image: null, og_image: null,
        read_time: 1, views: 0, meta_description: '', source: 'local', published_at: published ? at(20_000 + i) : null, created_at: at(20_000 + i), updated_at: at(20_000 + i), publish_at: null,
      };
    });
    for (let i = 0; i < rows.length; i += 200) await db.insertInto('blog_posts').values(rows.slice(i, i + 200)).execute();
    type Found = { posts: Array<{ title: string }>; total: number; totalIsLowerBound?: boolean; nextCursor?: string | null };
    const pub = await get<Found>('/api/posts?limit=3&q=pangolin');
    expect(pub.body).toMatchObject({ total: SEARCH_RANK_LIMIT, totalIsLowerBound: true });
    expect(pub.body.posts.map((p) => p.title)).toEqual([`Pangolin notes ${SEARCH_RANK_LIMIT + 2}`, `Pangolin notes ${SEARCH_RANK_LIMIT + 1}`, `Pangolin notes ${SEARCH_RANK_LIMIT}`]);
    // The next page still follows on (the keyset does not depend on the count).
    const next = await get<Found>(`/api/posts?limit=3&q=pangolin&cursor=${encodeURIComponent(pub.body.nextCursor ?? '')}`);
    expect(next.body.posts[0]!.title).toBe(`Pangolin notes ${SEARCH_RANK_LIMIT - 1}`);
    expect((await get<Found>('/api/admin/posts?limit=3&q=pangolin', true)).body).toMatchObject({ total: SEARCH_RANK_LIMIT, totalIsLowerBound: true });
    expect((await get<Found>('/api/admin/posts?limit=3&q=pangolin&status=draft', true)).body).toMatchObject({ total: 2, totalIsLowerBound: false });
    // One published post fewer: exactly SEARCH_RANK_LIMIT published matches, counted exactly; the admin's 1,002 are not.
    await db.deleteFrom('blog_posts').where('slug', '=', 'pangolin-2').execute();
    expect((await get<Found>('/api/posts?limit=3&q=pangolin')).body).toMatchObject({ total: SEARCH_RANK_LIMIT, totalIsLowerBound: false });
    expect((await get<Found>('/api/admin/posts?limit=3&q=pangolin', true)).body).toMatchObject({ total: SEARCH_RANK_LIMIT, totalIsLowerBound: true });
    // Without search text the public list's count is exact and says nothing more.
    expect((await get<Found>('/api/posts?limit=3')).body.totalIsLowerBound).toBeUndefined();
    await db.deleteFrom('blog_posts').where('slug', 'like', 'pangolin-%').execute();
  });

  it('breaks ties of rank by the list\'s order, also where a page ends: the same page at any limit, best match first', async () => {
    // 30 posts match "heron" equally (the same words, counts and lengths), some published at the same time (then the
    // newer creation, then the smaller id comes first); an older one has it twice in its title (best), the newest only
    // in its excerpt (worst). A page cut inside the tied ones holds the first of them in the list's order, whatever
    // part of the search reads the rows that break the ties.
    const published = (i: number) => at(40_000 + Math.floor(i / 3) * 10);
    const created = (i: number) => at(40_000 + Math.floor(i / 3) * 10 - (i % 3 === 2 ? 1 : 0));
    const row = (i: number, fields: Record<string, unknown>) => ({
      id: `00000000-0000-4000-a000-${String(i).padStart(12, '0')}`, slug: `heron-${i}`, title: `Heron notes ${i}`, excerpt: 'An excerpt.', content: '<p>Body.</p>',
      keywords: '[]', author: 'Owner', category: 'Business', category_slug: 'business', status: 'published', featured_image: null, og_image: null, read_time: 1,
      views: 0, meta_description: '', source: 'local', published_at: published(i), created_at: created(i), updated_at: created(i), publish_at: null, ...fields,
    });
    const tied = Array.from({ length: 30 }, (_, i) => row(i, {}));
    const best = row(100, { title: 'Heron heron 100', published_at: at(39_000), created_at: at(39_000), updated_at: at(39_000) });
    const worst = row(101, { title: 'Kingfisher notes 101', excerpt: 'Heron.', published_at: at(50_000), created_at: at(50_000), updated_at: at(50_000) });
    await db.insertInto('blog_posts').values([...tied.slice(15), best, ...tied.slice(0, 15), worst]).execute();
    // The list's order: published (or created) newest first, then created newest first, then id.
    const listOrder = [...tied].sort((a, b) => b.published_at.localeCompare(a.published_at) || b.created_at.localeCompare(a.created_at) || a.id.localeCompare(b.id)).map((p) => p.title);
    expect(new Set(listOrder.slice(0, 3).map((t) => created(Number(t.split(' ')[2]))))).toHaveProperty('size', 2); // ties in published_at and in created_at
    type Found = { posts: Array<{ title: string }>; total: number; totalIsLowerBound?: boolean };
    for (const limit of [1, 2, 10, 16, 31, 40]) {
      const found = await get<Found>(`/api/admin/posts?limit=${limit}&q=heron`, true);
      expect(found.status).toBe(200);
      expect(found.body.posts.map((p) => p.title), `limit ${limit}`).toEqual([best.title, ...listOrder, worst.title].slice(0, limit));
      expect(found.body).toMatchObject({ total: 32, totalIsLowerBound: false });
    }
    await db.deleteFrom('blog_posts').where('slug', 'like', 'heron-%').execute();

    // Leads: ties by the inbox's order (newest first, then id); the name match (A) first, a message-only match in order.
    const leads = Array.from({ length: 20 }, (_, i) => lead(60_000 + i, { id: `lead-osprey-${String(i).padStart(2, '0')}`, created_at: at(60_000 + Math.floor(i / 2)), message: `About the osprey, number ${i}.` }));
    const named = lead(59_000, { id: 'lead-osprey-named', name: 'Osprey Works', message: 'Hello there, number one.' });
    await db.insertInto('contact_messages').values([...leads.slice(10), named, ...leads.slice(0, 10)]).execute();
    const inboxOrder = [...leads].sort((a, b) => b.created_at.localeCompare(a.created_at) || a.id.localeCompare(b.id)).map((l) => l.id);
    for (const limit of [1, 5, 12, 21]) {
      const found = await get<{ leads: Array<{ id: string }>; total: number }>(`/api/admin/leads?limit=${limit}&q=osprey`, true);
      expect(found.body.leads.map((l) => l.id), `limit ${limit}`).toEqual([named.id, ...inboxOrder].slice(0, limit));
      expect(found.body.total).toBe(21);
    }
    await db.deleteFrom('contact_messages').where('id', 'like', 'lead-osprey-%').execute();
  });

  it('is served by the full-text index (the query plan)', async () => {
    for (const table of ['blog_posts', 'contact_messages'] as const) {
      const search = textSearch(db, table, ['dental', 'autom']);
      const query = search.ranked.select(sql<string>`id`.as('id')).orderBy(search.rank).limit(10);
      const compiled = query.compile();
      if (backend === 'sqlite') {
        const withParams = await db.executeQuery<{ detail: string }>({ ...compiled, sql: `explain query plan ${compiled.sql}` } as never);
        const details = (withParams.rows as Array<{ detail: string }>).map((r) => r.detail).join('\n');
        expect(details).toMatch(new RegExp(`SCAN ${table}_fts VIRTUAL TABLE INDEX \\d+:M`));
        expect(details).not.toMatch(new RegExp(`SCAN ${table}\\b(?!_fts)`));
        // The FTS scan is the outer loop (once), each match's row found by rowid: never a MATCH per row of the table.
        expect(details).toMatch(new RegExp(`SCAN ${table}_fts[^]*SEARCH ${table} USING INTEGER PRIMARY KEY \\(rowid=\\?\\)`));
        // A list in its own order reads the matches once into a set (not a MATCH per row), then its own rows.
        const list = search.from.select(sql<string>`id`.as('id')).orderBy(sql`created_at`, 'desc').limit(13).compile();
        const listPlan = await db.executeQuery<{ detail: string }>({ ...list, sql: `explain query plan ${list.sql}` } as never);
        const listDetails = (listPlan.rows as Array<{ detail: string }>).map((r) => r.detail).join('\n');
        expect(listDetails).toMatch(new RegExp(`LIST SUBQUERY[^]*SCAN ${table}_fts VIRTUAL TABLE INDEX \\d+:M`));
        expect(listDetails).not.toContain('CORRELATED');
        // The ranked page (the window, counted and numbered): the FTS scan gives the newest matches in its own order and
        // stops at the window's end, never a copy of every match sorted ("SCAN fts_match", then a sort).
        const window = newestWindow(db, search.ranked.select([sql<string>`id`.as('id'), sql<string>`created_at`.as('created_at'), search.rank.as('search_rank'), search.newest.as('newest_key')]) as unknown as RankedRows, search.newest);
        const page = bestOfWindowQuery(window, sql`created_at desc, id`, 10).compile(db);
        const pagePlan = await db.executeQuery<{ detail: string }>({ ...page, sql: `explain query plan ${page.sql}` } as never);
        const pageDetails = (pagePlan.rows as Array<{ detail: string }>).map((r) => r.detail).join('\n');
        expect(pageDetails).toMatch(new RegExp(`SCAN ${table}_fts VIRTUAL TABLE INDEX \\d+:M`));
        expect(pageDetails).not.toContain('SCAN fts_match');
        // Without a filter: the window ranked in the FTS index (scanned once, newest first), the table read by rowid for
        // the page's candidates only, never scanned.
        const inIndex = bestInIndexQuery(table, ['dental', 'autom'], sql`t.created_at desc, t.id`, 10).compile(db);
        const inIndexPlan = await db.executeQuery<{ detail: string }>({ ...inIndex, sql: `explain query plan ${inIndex.sql}` } as never);
        const inIndexDetails = (inIndexPlan.rows as Array<{ detail: string }>).map((r) => r.detail).join('\n');
        expect(inIndexDetails.match(new RegExp(`SCAN ${table}_fts VIRTUAL TABLE INDEX \\d+:M`, 'g'))).toHaveLength(1);
        expect(inIndexDetails).toMatch(/SEARCH t USING INTEGER PRIMARY KEY \(rowid=\?\)/);
        expect(inIndexDetails).not.toMatch(/SCAN t\b/);
      } else {
        const details = await db.transaction().execute(async (trx) => {
          await sql`set local enable_seqscan = off`.execute(trx);
          const plan = await trx.executeQuery<{ 'QUERY PLAN': string }>({ ...compiled, sql: `explain ${compiled.sql}` } as never);
          return (plan.rows as Array<{ 'QUERY PLAN': string }>).map((r) => r['QUERY PLAN']).join('\n');
        });
        if (table === 'blog_posts') {
          // Posts rank from their narrow search rows (migration 0031), never a page of article per match.
          expect(details).toContain('Bitmap Index Scan on blog_post_search_vector_idx');
          expect(details).toMatch(/Bitmap Heap Scan on blog_post_search blog_posts\b/);
        } else {
          expect(details).toContain(`Bitmap Index Scan on ${table}_search_idx`);
        }
      }
    }
  });

  it.runIf(backend === 'postgres')('reads the search index for its matches only, not every row written since the last vacuum', async () => {
    // 2,000 messages written one batch at a time and no VACUUM since: with the GIN index's pending list (fastupdate, on
    // by default) their entries wait in a list every search reads in full (some 150 pages here, and up to 4 MB).
    const rows = Array.from({ length: 2_000 }, (_, i) => lead(80_000 + i, { id: `lead-pending-${i}`, message: `Gutter cleaning estimate ${i} for a roof in Walnut Creek, ${i % 7} stories high${i === 1_234 ? ', with a skylight' : ''}.` }));
    for (let i = 0; i < rows.length; i += 250) await db.insertInto('contact_messages').values(rows.slice(i, i + 250)).execute();
    const plan = await db.transaction().execute(async (trx) => {
      await sql`set local enable_seqscan = off`.execute(trx);
      const { rows: explained } = await sql<{ 'QUERY PLAN': Array<{ Plan: Record<string, unknown> }> }>`
        explain (analyze, buffers, format json) select id from contact_messages where search_vector @@ to_tsquery('simple'::regconfig, ${tsQuery(['skylight'])})`.execute(trx);
      return explained[0]!['QUERY PLAN'][0]!.Plan;
    });
    const indexScan = (function find(node: Record<string, unknown>): Record<string, unknown> | undefined {
      if (node['Node Type'] === 'Bitmap Index Scan') return node;
      for (const child of (node.Plans as Array<Record<string, unknown>> | undefined) ?? []) {
        const found = find(child);
        if (found) return found;
      }
      return undefined;
    })(plan);
    expect(indexScan?.['Index Name']).toBe('contact_messages_search_idx');
    expect(indexScan?.['Actual Rows']).toBe(1);
    expect(Number(indexScan?.['Shared Hit Blocks']) + Number(indexScan?.['Shared Read Blocks'])).toBeLessThan(20);
    await db.deleteFrom('contact_messages').where('id', 'like', 'lead-pending-%').execute();
  });
});
