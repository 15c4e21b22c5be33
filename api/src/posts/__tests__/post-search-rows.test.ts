import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '../../db/database';
import { postSearchRowsMigration } from '../../db/migrations/0031-post-search-rows';
import { testBackends, type TestDatabase } from '../../test-support/databases';
import type { BlogPostsTable } from '../blog-schema';
import { postRow } from '../../test-support/post-rows';
import { createPostsRepository } from '../posts-repository';

/*
 * PostgreSQL ranks the admin's post search from narrow rows of its own (blog_post_search, migration 0031), kept by a
 * trigger on blog_posts. Whatever writes a post (the API, the webhook, a script, SQL), the search must find it as it
 * is now: a stale row would rank a post under its old title, in its old status, or after it was deleted.
 */
const postgres = testBackends().find((b) => b.name === 'postgres');

const post = (n: number, fields: Partial<BlogPostsTable> = {}) => postRow(n, 'bird', fields);

describe.skipIf(!postgres)('the post search rows on PostgreSQL (skipped without TEST_DATABASE_URL)', () => {
  let database: TestDatabase | undefined;
  let handle: DatabaseHandle;
  beforeAll(async () => {
    database = await postgres!.open();
    handle = database.handle;
  }, 60_000);
  afterAll(() => database?.dispose());

  const slugs = async (q: string, status?: 'published' | 'draft') =>
    (await createPostsRepository(handle.db).ranked({ q, ...(status ? { status } : {}) }, 10)).posts.map((p) => p.slug).sort();
  /** Posts whose search row is missing, left over, or differs from the post in anything the search reads. */
  const outOfStep = async () => {
    const { rows } = await sql<{ n: string }>`
      select count(*) as n from blog_posts p full join blog_post_search s on s.id = p.id
      where p.id is null or s.id is null
         or (s.status, s.category_slug, s.published_at, s.created_at) is distinct from (p.status, p.category_slug, p.published_at, p.created_at)
         or s.search_vector is distinct from p.search_vector`.execute(handle.db);
    return Number(rows[0]!.n);
  };

  it('follows every insert, update and delete, whoever writes', async () => {
    const { db } = handle;
    await db.insertInto('blog_posts').values([post(1, { title: 'Osprey nesting season' }), post(2, { title: 'Heron at dusk' }), post(3, { excerpt: 'An osprey over the creek.' })]).execute();
    expect(await slugs('osprey')).toEqual(['bird-1', 'bird-3']);

    await db.updateTable('blog_posts').set({ title: 'Osprey and heron at dusk' }).where('slug', '=', 'bird-2').execute();
    await db.updateTable('blog_posts').set({ title: 'Kingfisher nesting season' }).where('slug', '=', 'bird-1').execute();
    expect(await slugs('osprey')).toEqual(['bird-2', 'bird-3']);
    expect(await slugs('kingfisher')).toEqual(['bird-1']);

    await db.updateTable('blog_posts').set({ status: 'draft', published_at: null }).where('slug', '=', 'bird-3').execute();
    expect(await slugs('osprey', 'published')).toEqual(['bird-2']);
    expect(await slugs('osprey', 'draft')).toEqual(['bird-3']);

    await db.updateTable('blog_posts').set({ category_slug: 'wildlife' }).where('slug', '=', 'bird-2').execute();
    const inCategory = await createPostsRepository(db).ranked({ q: 'osprey', categorySlug: 'wildlife' }, 10);
    expect(inCategory.posts.map((p) => p.slug)).toEqual(['bird-2']);

    await db.deleteFrom('blog_posts').where('slug', '=', 'bird-2').execute();
    expect(await slugs('osprey')).toEqual(['bird-3']);
    expect(await outOfStep()).toBe(0);
  });

  it('is not rewritten by a write the search does not read (a view, the article)', async () => {
    const { db } = handle;
    await db.insertInto('blog_posts').values(post(10, { title: 'Egret in the marsh' })).execute();
    const version = async () => (await sql<{ v: string }>`select xmin::text as v from blog_post_search where id = ${post(10).id}`.execute(db)).rows[0]?.v;
    const before = await version();
    expect(before).toBeDefined();
    await db.updateTable('blog_posts').set((eb) => ({ views: eb('views', '+', 1) })).where('slug', '=', 'bird-10').execute();
    await db.updateTable('blog_posts').set({ content: '<p>A longer article.</p>' }).where('slug', '=', 'bird-10').execute();
    expect(await version()).toBe(before);
    await db.updateTable('blog_posts').set({ excerpt: 'White egret.' }).where('slug', '=', 'bird-10').execute();
    expect(await version()).not.toBe(before);
    expect(await outOfStep()).toBe(0);
  });

  it('is filled from the posts already stored when the migration runs', async () => {
    const { db } = handle;
    await postSearchRowsMigration.down!(db);
    await db.insertInto('blog_posts').values([post(20, { title: 'Pelican diving' }), post(21, { title: 'Pelican resting', status: 'draft', published_at: null })]).execute();
    await postSearchRowsMigration.up(db);
    expect(await outOfStep()).toBe(0);
    expect(await slugs('pelican')).toEqual(['bird-20', 'bird-21']);
    expect(await slugs('pelican', 'draft')).toEqual(['bird-21']);
  });
});
