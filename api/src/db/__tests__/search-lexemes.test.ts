import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { searchWords } from '@site/contracts/search-rules';
import type { ContactMessagesTable } from '../../contact/contact-schema';
import { createLeadsRepository } from '../../contact/leads-repository';
import { createPostsRepository } from '../../posts/posts-repository';
import type { DatabaseHandle } from '../database';
import { PG_PREFIX_WORDS, pgMatchQuery, tsQuery } from '../full-text-search';
import { searchLexemesMigration } from '../migrations/0032-search-lexemes';
import { leadRow } from '../../test-support/lead-rows';
import { postRow } from '../../test-support/post-rows';
import { testBackends, type TestDatabase } from '../../test-support/databases';

/*
 * PostgreSQL finds a search's last word, a prefix, as the whole words of the index it starts (migration 0032's
 * `search_lexemes`, full-text-search.ts `pgMatchQuery`). A word missing from that table would be a match the search
 * never finds: every word of every message and post must be in it, whoever writes them (the API, the webhook, SQL),
 * and the matches must be exactly the prefix's, however many words it starts.
 */
const postgres = testBackends().find((b) => b.name === 'postgres');
const T0 = Date.parse('2026-05-01T00:00:00.000Z');
const lead = (n: number, fields: Partial<ContactMessagesTable> = {}) => leadRow(n, { message: 'Please call me back.', ...fields }, T0);

describe.skipIf(!postgres)('the words a prefix stands for, on PostgreSQL (skipped without TEST_DATABASE_URL)', () => {
  let database: TestDatabase | undefined;
  let handle: DatabaseHandle;
  beforeAll(async () => {
    database = await postgres!.open();
    handle = database.handle;
  }, 60_000);
  afterAll(() => database?.dispose());

  /** Words of a message's or a post's search vector that `search_lexemes` lacks. */
  const missing = async () => {
    const { rows } = await sql<{ word: string }>`
      select distinct w as word from (
        select unnest(tsvector_to_array(search_vector)) as w from contact_messages
        union all select unnest(tsvector_to_array(search_vector)) from blog_posts
      ) words where not exists (select 1 from search_lexemes l where l.word = words.w)`.execute(handle.db);
    return rows.map((r) => r.word).sort();
  };
  const leadNames = async (q: string) => (await createLeadsRepository(handle.db).search({ q, filter: 'all', limit: 100 })).leads.map((l) => l.name).sort();
  const postSlugs = async (q: string) => (await createPostsRepository(handle.db).ranked({ q }, 100)).posts.map((p) => p.slug).sort();

  it('holds every word stored, after inserts and after updates of the searched text, whoever writes', async () => {
    const { db } = handle;
    await db.insertInto('contact_messages').values([lead(1, { message: 'We run a bakery in Danville.' }), lead(2, { company: 'Bakehouse Co' })]).execute();
    await db.insertInto('blog_posts').values(postRow(1, 'heron', { title: 'Baking schedules that work' })).execute();
    expect(await missing()).toEqual([]);
    expect(await leadNames('bakeh')).toEqual(['Visitor 2']);
    expect(await leadNames('bakery')).toEqual(['Visitor 1']);
    expect(await leadNames('bak')).toEqual(['Visitor 1', 'Visitor 2']);

    // A word first written by an update (of the message, of a post's title) is found by its prefix at once.
    await db.updateTable('contact_messages').set({ message: 'Our bakeries need online booking.' }).where('id', '=', lead(1).id).execute();
    await db.updateTable('blog_posts').set({ title: 'Bakeries and their booking' }).where('slug', '=', 'heron-1').execute();
    expect(await missing()).toEqual([]);
    expect(await leadNames('bakeri')).toEqual(['Visitor 1']);
    expect(await leadNames('bake')).toEqual(['Visitor 1', 'Visitor 2']);
    expect(await postSlugs('bakeri')).toEqual(['heron-1']);
    expect(await postSlugs('booking bake')).toEqual(['heron-1']);
  });

  it('finds exactly what the prefix finds: one word, many, more than it looks up, none, and after other words', async () => {
    const { db } = handle;
    // PG_PREFIX_WORDS + 6 words starting "zq" (past the lookup: the prefix itself), and a few starting "otter".
    const many = Array.from({ length: PG_PREFIX_WORDS + 6 }, (_, i) => `zq${i.toString(36)}x`);
    await db
      .insertInto('contact_messages')
      .values([
        ...many.map((word, i) => lead(100 + i, { message: `Note ${word} about otters${i % 3 ? '' : ' ottering'}.` })),
        lead(200, { subject: 'Otter', message: 'Plain otter.' }),
        lead(201, { name: 'Ottoline Baker', message: 'Nothing else.' }),
      ])
      .execute();
    expect(await missing()).toEqual([]);
    const ids = async (where: ReturnType<typeof sql<boolean>>) =>
      (await db.selectFrom('contact_messages').select('id').where(where).orderBy('id').execute()).map((r) => r.id);
    for (const q of ['otter', 'ott', 'otters', 'zq', 'zq1', 'zq1x', 'note zq', 'note otter', 'baker otto', 'ottoline', 'nowordlikethis', 'note nowordlike']) {
      const words = searchWords(q);
      const byPrefix = await ids(sql<boolean>`search_vector @@ to_tsquery('simple'::regconfig, ${tsQuery(words)})`);
      const byWords = await ids(sql<boolean>`search_vector @@ ${pgMatchQuery(words)}`);
      expect(byWords, q).toEqual(byPrefix);
    }
    expect((await ids(sql<boolean>`search_vector @@ ${pgMatchQuery(['zq'])}`)).length).toBe(PG_PREFIX_WORDS + 6);
    expect((await ids(sql<boolean>`search_vector @@ ${pgMatchQuery(['ott'])}`)).length).toBe(PG_PREFIX_WORDS + 8);
  });

  it('looks the prefix up as a range of its key, not a scan of every word', async () => {
    // 20,000 more words (as many distinct words as 10,000 messages hold), the table's statistics current.
    await sql`insert into search_lexemes (word) select 'w' || g::text from generate_series(1, 20000) g on conflict do nothing`.execute(handle.db);
    await sql`analyze search_lexemes`.execute(handle.db);
    const { rows } = await sql<{ 'QUERY PLAN': string }>`
      explain select id from contact_messages where search_vector @@ ${pgMatchQuery(['danville', 'bak'])}`.execute(handle.db);
    const plan = rows.map((r) => r['QUERY PLAN']).join('\n');
    expect(plan).toMatch(/Index Only Scan using search_lexemes_pkey on search_lexemes[\s\S]*Index Cond: \(\(word >= 'bak'::text\) AND \(word < 'bal'::text\)\)/);
    expect(plan).not.toMatch(/Seq Scan on search_lexemes/);
  });

  it('lets two writers add the same new words at once without a deadlock', async () => {
    // A post's writer holds a new word ("longwordish") in a transaction still open; a message holding it and another
    // new word ("zq") is written meanwhile and waits for the first word. The post's writer then adds "zq" too. Words
    // are added in one order (sorted): the message's writer took nothing before it waited, so "zq" is free and both
    // finish. (Taken in the vector's order, shorter words first, the message would hold "zq" while it waits: a cycle,
    // and PostgreSQL cancels one of the two writes as a deadlock.)
    const { db } = handle;
    const other = (await database!.another()).db;
    const waiting = async () => {
      const { rows } = await sql<{ n: string }>`
        select count(*) as n from pg_stat_activity
        where datname = current_database() and wait_event_type = 'Lock' and query like 'insert into "contact_messages"%'`.execute(db);
      return Number(rows[0]?.n ?? 0);
    };
    let messageWritten: Promise<unknown> | undefined;
    await db.transaction().execute(async (trx) => {
      await trx.insertInto('blog_posts').values(postRow(400, 'wren', { title: 'Longwordish' })).execute();
      messageWritten = other.insertInto('contact_messages').values(lead(400, { message: 'zq longwordish' })).execute();
      await expect.poll(waiting, { timeout: 10_000, interval: 20 }).toBe(1);
      await trx.insertInto('blog_posts').values(postRow(401, 'wren', { title: 'Zq' })).execute();
    });
    await messageWritten;
    expect(await missing()).toEqual([]);
    expect(await leadNames('longwordis')).toEqual(['Visitor 400']);
    expect(await postSlugs('z')).toEqual(['wren-401']);
  });

  it('is filled from the messages and posts already stored when the migration runs', async () => {
    const { db } = handle;
    await searchLexemesMigration.down!(db);
    await db.insertInto('contact_messages').values(lead(300, { message: 'A kingfisherlike word nobody wrote before.' })).execute();
    await db.insertInto('blog_posts').values(postRow(300, 'heron', { title: 'Cormorantish notes' })).execute();
    await searchLexemesMigration.up(db);
    expect(await missing()).toEqual([]);
    expect(await leadNames('kingfisherl')).toEqual(['Visitor 300']);
    expect(await postSlugs('cormoranti')).toEqual(['heron-300']);
  });
});
