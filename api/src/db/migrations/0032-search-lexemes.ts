import { PostgresAdapter, sql, type Kysely } from 'kysely';
import type { Migration } from './migration';

/*
 * PostgreSQL: every word the search index holds, in a table of its own, so that a search's last word (a prefix: "bak"
 * finds "bakery") is looked up as the few whole words it starts (issue 32). The GIN index answers a prefix by reading
 * every matching word's entries into a bitmap before it can combine them with the other words; a whole word it reads
 * with the other words, skipping what cannot match. full-text-search.ts (`pgMatchQuery`) reads this table: up to
 * PG_PREFIX_WORDS words, else the prefix as before.
 *
 * Kept by the database, whoever writes: after an insert into `contact_messages` or `blog_posts` (once per statement,
 * from the rows inserted) and after an update of a column a vector is made from. Words are added in sorted order, so
 * two writers adding the same new words wait for each other in one order, never in a cycle. A word is never removed:
 * one left by a deleted row only makes a search look up a word that nothing holds. Filled here from the rows stored.
 * SQLite's FTS5 index walks a prefix's words in order already: nothing to do there.
 */
const SOURCES = {
  contact_messages: ['name', 'email', 'company', 'subject', 'message'],
  blog_posts: ['title', 'excerpt', 'category'],
} as const;

export const searchLexemesMigration: Migration = {
  name: '0032-search-lexemes',
  async up(db: Kysely<any>) {
    if (!(db.getExecutor().adapter instanceof PostgresAdapter)) return;
    // "C": byte order, so a prefix is one range of the primary key (`word like 'bak%'`), whatever the database's collation.
    await sql`create table search_lexemes (word text collate "C" primary key)`.execute(db);
    await sql`
      insert into search_lexemes (word)
      select unnest(tsvector_to_array(search_vector)) from contact_messages
      union
      select unnest(tsvector_to_array(search_vector)) from blog_posts`.execute(db);
    await sql`
      create function search_lexemes_inserted() returns trigger language plpgsql as $$
      begin
        insert into search_lexemes (word)
        select w from (select distinct unnest(tsvector_to_array(search_vector)) as w from inserted_rows) words
        order by w
        on conflict do nothing;
        return null;
      end
      $$`.execute(db);
    await sql`
      create function search_lexemes_updated() returns trigger language plpgsql as $$
      begin
        insert into search_lexemes (word)
        select w from (select distinct unnest(tsvector_to_array(new.search_vector)) as w) words
        order by w
        on conflict do nothing;
        return null;
      end
      $$`.execute(db);
    for (const [table, columns] of Object.entries(SOURCES)) {
      await sql
        .raw(`create trigger ${table}_lexemes_inserted after insert on ${table} referencing new table as inserted_rows for each statement execute function search_lexemes_inserted()`)
        .execute(db);
      await sql
        .raw(
          `create trigger ${table}_lexemes_updated after update of ${columns.join(', ')} on ${table} for each row ` +
            `when (old.search_vector is distinct from new.search_vector) execute function search_lexemes_updated()`,
        )
        .execute(db);
    }
    await sql`analyze search_lexemes`.execute(db);
  },
  async down(db: Kysely<any>) {
    if (!(db.getExecutor().adapter instanceof PostgresAdapter)) return;
    for (const table of Object.keys(SOURCES)) {
      await sql.raw(`drop trigger if exists ${table}_lexemes_inserted on ${table}`).execute(db);
      await sql.raw(`drop trigger if exists ${table}_lexemes_updated on ${table}`).execute(db);
    }
    await sql`drop function if exists search_lexemes_inserted()`.execute(db);
    await sql`drop function if exists search_lexemes_updated()`.execute(db);
    await sql`drop table if exists search_lexemes`.execute(db);
  },
};
