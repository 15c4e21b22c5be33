import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLeadsRepository } from '../../contact/leads-repository';
import { createPostsRepository } from '../../posts/posts-repository';
import type { DatabaseHandle } from '../database';
import { searchPrefixesMigration } from '../migrations/0033-search-prefixes';
import { leadRow } from '../../test-support/lead-rows';
import { postRow } from '../../test-support/post-rows';
import { testBackends, type TestDatabase } from '../../test-support/databases';

/*
 * SQLite reads a search's last word of 1 to 3 characters from FTS5 prefix indexes (migration 0033), so that the first
 * letters typed into a search box cost what a whole word costs instead of a merge of every word they start, which grew
 * with the data (api/bench/data-scale.mjs: leads `q=s`, `q=danville+b`). Only how a prefix is read changes: the matches
 * must be the same, for the rows stored before the migration as for those after.
 */
const sqlite = testBackends().find((b) => b.name === 'sqlite')!;

describe('prefix indexes of the search, on SQLite', () => {
  let database: TestDatabase;
  let handle: DatabaseHandle;
  beforeAll(async () => {
    database = await sqlite.open();
    handle = database.handle;
    await handle.db.deleteFrom('blog_posts').execute();
  }, 60_000);
  afterAll(() => database?.dispose());

  const leadNames = async (q: string) => (await createLeadsRepository(handle.db).search({ q, filter: 'all', limit: 100 })).leads.map((l) => l.name).sort();
  const postSlugs = async (q: string) => (await createPostsRepository(handle.db).ranked({ q }, 100)).posts.map((p) => p.slug).sort();
  const declared = async (table: string) =>
    (await sql<{ sql: string }>`select sql from sqlite_master where name = ${table}`.execute(handle.db)).rows[0]?.sql ?? '';

  it('indexes the first 1, 2 and 3 characters of every word of posts and messages', async () => {
    expect(await declared('blog_posts_fts')).toContain("prefix='1 2 3'");
    expect(await declared('contact_messages_fts')).toContain("prefix='1 2 3'");
  });

  it('finds by the first letters exactly what the prefix finds, for rows stored before the migration and after it', async () => {
    const { db } = handle;
    await searchPrefixesMigration.down!(db);
    expect(await declared('contact_messages_fts')).not.toContain('prefix=');
    await db.insertInto('contact_messages').values([leadRow(1, { name: 'Sandra Baker', message: 'We run a bakery in Danville.' }), leadRow(2, { company: 'Bay Area Bikes', message: 'Bikes.' })]).execute();
    await db.insertInto('blog_posts').values([postRow(1, 'sparrow', { title: 'Baking schedules' }), postRow(2, 'swift', { title: 'Bicycle repairs' })]).execute();
    const before = {
      leads: await Promise.all(['s', 'b', 'ba', 'bak', 'bake', 'danville b', 'danville ba', 'visitor 2 bi', 'x'].map(leadNames)),
      posts: await Promise.all(['s', 'b', 'ba', 'bak', 'baking', 'bi', 'about the s', 'x'].map(postSlugs)),
    };
    expect(before.leads[1]).toEqual(['Sandra Baker', 'Visitor 2']);
    expect(before.leads[5]).toEqual(['Sandra Baker']);
    expect(before.posts[0]).toEqual(['sparrow-1', 'swift-2']);

    await searchPrefixesMigration.up(db);
    expect(await declared('contact_messages_fts')).toContain("prefix='1 2 3'");
    await db.insertInto('contact_messages').values(leadRow(3, { name: 'Bo Sand', message: 'Saddles and bakes.' })).execute();
    await db.insertInto('blog_posts').values(postRow(3, 'stork', { title: 'Bakes and bikes' })).execute();
    const after = {
      leads: await Promise.all(['s', 'b', 'ba', 'bak', 'bake', 'danville b', 'danville ba', 'visitor 2 bi', 'x'].map(leadNames)),
      posts: await Promise.all(['s', 'b', 'ba', 'bak', 'baking', 'bi', 'about the s', 'x'].map(postSlugs)),
    };
    const withNew = (names: string[][], added: Record<number, string>) => names.map((n, i) => (added[i] ? [...n, added[i]].sort() : n));
    // The new rows are found by their prefixes; the rows stored before the migration still are, by the same searches.
    expect(after.leads).toEqual(withNew(before.leads, { 0: 'Bo Sand', 1: 'Bo Sand', 2: 'Bo Sand', 3: 'Bo Sand', 4: 'Bo Sand' }));
    expect(after.posts).toEqual(withNew(before.posts, { 0: 'stork-3', 1: 'stork-3', 2: 'stork-3', 3: 'stork-3', 5: 'stork-3', 6: 'stork-3' }));
    // An edit and a delete keep the prefix indexes in step, as the whole words.
    await db.updateTable('contact_messages').set({ name: 'Visitor 3', message: 'Nothing here.' }).where('id', '=', leadRow(3).id).execute();
    await db.deleteFrom('blog_posts').where('slug', '=', 'stork-3').execute();
    expect(await leadNames('bak')).toEqual(before.leads[3]);
    expect(await postSlugs('bi')).toEqual(before.posts[5]);
  });
});
