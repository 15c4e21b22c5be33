import { PostgresAdapter, sql, type Kysely } from 'kysely';
import type { Migration } from './migration';

/**
 * How many posts each status and category has, kept by the database itself (triggers on blog_posts), so a list's
 * `total` is one row read instead of a count over every post: with tens of thousands of posts the count was the
 * largest cost of `GET /api/posts` and of each re-render of the blog (the load benchmark). Exact on every instance:
 * the triggers run in the transaction of the write that changes a post, whoever writes it.
 */
export const postCountsMigration: Migration = {
  name: '0009-post-counts',
  async up(db: Kysely<any>) {
    await db.schema
      .createTable('blog_post_counts')
      .addColumn('status', 'text', (col) => col.notNull())
      .addColumn('category_slug', 'text', (col) => col.notNull())
      .addColumn('posts', 'integer', (col) => col.notNull())
      .addPrimaryKeyConstraint('blog_post_counts_pk', ['status', 'category_slug'])
      .execute();
    await sql`insert into blog_post_counts (status, category_slug, posts) select status, category_slug, count(*) from blog_posts group by status, category_slug`.execute(
      db,
    );
    if (db.getExecutor().adapter instanceof PostgresAdapter) {
      await sql`
        create function blog_post_counts_track() returns trigger language plpgsql as $$
        begin
          if tg_op in ('DELETE', 'UPDATE') then
            update blog_post_counts set posts = posts - 1 where status = old.status and category_slug = old.category_slug;
          end if;
          if tg_op in ('INSERT', 'UPDATE') then
            insert into blog_post_counts (status, category_slug, posts) values (new.status, new.category_slug, 1)
              on conflict (status, category_slug) do update set posts = blog_post_counts.posts + 1;
          end if;
          return null;
        end $$`.execute(db);
      await sql`create trigger blog_post_counts_insert_delete after insert or delete on blog_posts for each row execute function blog_post_counts_track()`.execute(
        db,
      );
      await sql`
        create trigger blog_post_counts_update after update of status, category_slug on blog_posts for each row
        when (old.status is distinct from new.status or old.category_slug is distinct from new.category_slug)
        execute function blog_post_counts_track()`.execute(db);
      return;
    }
    await sql`
      create trigger blog_post_counts_insert after insert on blog_posts begin
        insert into blog_post_counts (status, category_slug, posts) values (new.status, new.category_slug, 1)
          on conflict (status, category_slug) do update set posts = posts + 1;
      end`.execute(db);
    await sql`
      create trigger blog_post_counts_delete after delete on blog_posts begin
        update blog_post_counts set posts = posts - 1 where status = old.status and category_slug = old.category_slug;
      end`.execute(db);
    await sql`
      create trigger blog_post_counts_update after update of status, category_slug on blog_posts
      when old.status is not new.status or old.category_slug is not new.category_slug begin
        update blog_post_counts set posts = posts - 1 where status = old.status and category_slug = old.category_slug;
        insert into blog_post_counts (status, category_slug, posts) values (new.status, new.category_slug, 1)
          on conflict (status, category_slug) do update set posts = posts + 1;
      end`.execute(db);
  },
  async down(db: Kysely<any>) {
    if (db.getExecutor().adapter instanceof PostgresAdapter) {
      await sql`drop trigger blog_post_counts_update on blog_posts`.execute(db);
      await sql`drop trigger blog_post_counts_insert_delete on blog_posts`.execute(db);
      await sql`drop function blog_post_counts_track()`.execute(db);
    } else {
      for (const name of ['blog_post_counts_update', 'blog_post_counts_delete', 'blog_post_counts_insert']) await sql`drop trigger ${sql.raw(name)}`.execute(db);
    }
    await db.schema.dropTable('blog_post_counts').execute();
  },
};
