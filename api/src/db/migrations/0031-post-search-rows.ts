import { PostgresAdapter, sql, type Kysely } from 'kysely';
import type { Migration } from './migration';

/*
 * PostgreSQL: what the admin's ranked post search reads, in a narrow table of its own (issue 32). Ranking reads each
 * match's search vector, dates, status and category; in `blog_posts` they share a row with the article, about one
 * post per page, so ranking a common word's matches read about a page per match. `blog_post_search` holds one narrow
 * row per post (id, status, category, the two dates of the list's order and a copy of the generated `search_vector`)
 * with its own GIN index.
 *
 * Kept by the database, whoever writes: a trigger after insert and after an update of a column it copies or its
 * vector reads (a view count's or an article's update does not touch it), and a post's delete (or a change of its id)
 * cascades through the foreign key, so it never disagrees with the posts. Filled here from the existing posts. Lists
 * in their own order, the counts and the walk of a common word (posts-repository's newestPostsPg) still read
 * `blog_posts` and its index. SQLite ranks in its FTS5 index, which holds no article either: nothing to do there.
 */
const COPIED = ['status', 'category_slug', 'published_at', 'created_at', 'title', 'excerpt', 'category'] as const;

export const postSearchRowsMigration: Migration = {
  name: '0031-post-search-rows',
  async up(db: Kysely<any>) {
    if (!(db.getExecutor().adapter instanceof PostgresAdapter)) return;
    await sql`
      create table blog_post_search (
        id text primary key references blog_posts (id) on delete cascade on update cascade,
        status text not null,
        category_slug text not null,
        published_at text,
        created_at text not null,
        search_vector tsvector not null
      )`.execute(db);
    await sql`
      insert into blog_post_search (id, status, category_slug, published_at, created_at, search_vector)
      select id, status, category_slug, published_at, created_at, search_vector from blog_posts`.execute(db);
    await sql`create index blog_post_search_vector_idx on blog_post_search using gin (search_vector) with (fastupdate = off)`.execute(db);
    await sql`
      create function blog_post_search_keep() returns trigger language plpgsql as $$
      begin
        insert into blog_post_search (id, status, category_slug, published_at, created_at, search_vector)
        values (new.id, new.status, new.category_slug, new.published_at, new.created_at, new.search_vector)
        on conflict (id) do update set
          status = excluded.status, category_slug = excluded.category_slug, published_at = excluded.published_at,
          created_at = excluded.created_at, search_vector = excluded.search_vector;
        return null;
      end
      $$`.execute(db);
    // `update of` the copied columns and the vector's sources: the row's other writes (views, content) leave it be.
    await sql
      .raw(`create trigger blog_post_search_keep after insert or update of ${COPIED.join(', ')} on blog_posts for each row execute function blog_post_search_keep()`)
      .execute(db);
    await sql`analyze blog_post_search`.execute(db);
  },
  async down(db: Kysely<any>) {
    if (!(db.getExecutor().adapter instanceof PostgresAdapter)) return;
    await sql`drop trigger if exists blog_post_search_keep on blog_posts`.execute(db);
    await sql`drop function if exists blog_post_search_keep()`.execute(db);
    await sql`drop table if exists blog_post_search`.execute(db);
  },
};
