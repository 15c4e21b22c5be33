import { PostgresAdapter, sql, type Kysely } from 'kysely';
import type { Migration } from './migration';

/*
 * SQLite: the FTS5 tables of migration 0017 again, with prefix indexes for a search's last word of 1, 2 or 3
 * characters (`prefix='1 2 3'`), so that the first letters typed into a search box cost what a whole word costs
 * (issue 32). FTS5 answers a prefix without its index by merging the entries of every word it starts into one list
 * in memory before reading the first match, and that list grows with the data; a prefix of 4 characters or more
 * starts few enough words for merging to cost what its matches cost.
 *
 * The price is the index's size (about three times): each word is also stored under its first 1, 2 and 3 characters.
 * Same words, same matches, same bm25: only the way a prefix is read
 * changes. Triggers of 0017 write to the tables by name and keep writing to the new ones. PostgreSQL's GIN index
 * reads prefixes otherwise (migration 0032; a common text walks the newest rows): nothing to do there.
 */
const TABLES = {
  blog_posts: ['title', 'excerpt', 'category'],
  contact_messages: ['name', 'email', 'company', 'subject', 'message'],
} as const;

async function recreate(db: Kysely<any>, options: string) {
  for (const [table, columns] of Object.entries(TABLES)) {
    const fts = `${table}_fts`;
    await sql.raw(`drop table ${fts}`).execute(db);
    await sql
      .raw(`create virtual table ${fts} using fts5(${columns.join(', ')}, content='${table}', tokenize='unicode61 remove_diacritics 0'${options})`)
      .execute(db);
    await sql.raw(`insert into ${fts}(${fts}) values ('rebuild')`).execute(db);
  }
}

export const searchPrefixesMigration: Migration = {
  name: '0033-search-prefixes',
  async up(db: Kysely<any>) {
    if (db.getExecutor().adapter instanceof PostgresAdapter) return;
    await recreate(db, `, prefix='1 2 3'`);
  },
  async down(db: Kysely<any>) {
    if (db.getExecutor().adapter instanceof PostgresAdapter) return;
    await recreate(db, '');
  },
};
