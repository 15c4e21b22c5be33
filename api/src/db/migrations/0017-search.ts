import { PostgresAdapter, sql, type Kysely } from 'kysely';
import type { Migration } from './migration';

/*
 * Full-text search of posts (title, excerpt, category) and contact messages (name, email, company, subject, message)
 * through the database's own index, kept in step by the database on every write, whoever writes:
 *
 * - SQLite: an FTS5 external-content table per table (`content='blog_posts'`: the index only, the text stays in the
 *   table), filled from the existing rows here and kept by triggers after insert, delete and update of the searched
 *   columns. Its rows are keyed by the table's rowid (these tables have no INTEGER PRIMARY KEY): whatever renumbers
 *   rowids (a migration that copies one of these tables into a new one; SQLite allows VACUUM to, the app runs none)
 *   must end with `insert into <fts>(<fts>) values ('rebuild')`.
 * - PostgreSQL: a stored generated column `search_vector` (the weighted `tsvector`, computed by the database on
 *   every insert and update, filled for the existing rows by this ALTER) with a GIN index. Stored rather than an
 *   expression index so that ranking a search's matches reads the vector instead of parsing the text again for each
 *   match (10,000 messages searched for a common word, `scheduling`, ranked: p50 378 ms on the expression, 16 ms
 *   stored; api/bench/search-scale.entry.ts --factor 0.1). Column and index live in the table's schema, so a
 *   `search_path` per schema works. Lists select their columns by name, so they never read it.
 *
 * Both split text into words the same way: letters and digits, every other character a separator (FTS5 `unicode61`;
 * on PostgreSQL ASCII punctuation is turned into spaces first so that `jane@example.com` or `foo-bar` become words
 * as on SQLite, not one email or hyphenated token). Case-insensitive; accents are kept (`remove_diacritics 0`),
 * since PostgreSQL has no accent folding without an extension.
 */
const PUNCTUATION = `'!"#$%&''()*+,-./:;<=>?@[\\]^_\`{|}~'`;
const SPACES = `'${' '.repeat(32)}'`;

function vector(columns: ReadonlyArray<readonly [string, 'A' | 'B' | 'C' | 'D']>) {
  return columns
    .map(([column, weight]) => `setweight(to_tsvector('simple'::regconfig, translate(coalesce(${column}, ''), ${PUNCTUATION}, ${SPACES})), '${weight}')`)
    .join(' || ');
}

const TABLES = [
  { table: 'blog_posts', columns: [['title', 'A'], ['excerpt', 'B'], ['category', 'C']] },
  { table: 'contact_messages', columns: [['name', 'A'], ['email', 'A'], ['company', 'B'], ['subject', 'B'], ['message', 'C']] },
] as const;

export const searchMigration: Migration = {
  name: '0017-search',
  async up(db: Kysely<any>) {
    if (db.getExecutor().adapter instanceof PostgresAdapter) {
      for (const { table, columns } of TABLES) {
        await sql.raw(`alter table ${table} add column search_vector tsvector generated always as (${vector(columns)}) stored`).execute(db);
        await sql.raw(`create index ${table}_search_idx on ${table} using gin (search_vector)`).execute(db);
      }
      return;
    }
    for (const { table, columns } of TABLES) {
      const fts = `${table}_fts`;
      const names = columns.map(([column]) => column);
      const list = names.join(', ');
      const fromNew = names.map((n) => `new.${n}`).join(', ');
      const fromOld = names.map((n) => `old.${n}`).join(', ');
      await sql
        .raw(`create virtual table ${fts} using fts5(${list}, content='${table}', tokenize='unicode61 remove_diacritics 0')`)
        .execute(db);
      await sql.raw(`insert into ${fts}(${fts}) values ('rebuild')`).execute(db);
      await sql.raw(`create trigger ${fts}_insert after insert on ${table} begin insert into ${fts}(rowid, ${list}) values (new.rowid, ${fromNew}); end`).execute(db);
      await sql
        .raw(`create trigger ${fts}_delete after delete on ${table} begin insert into ${fts}(${fts}, rowid, ${list}) values ('delete', old.rowid, ${fromOld}); end`)
        .execute(db);
      await sql
        .raw(
          `create trigger ${fts}_update after update of ${list} on ${table} begin ` +
            `insert into ${fts}(${fts}, rowid, ${list}) values ('delete', old.rowid, ${fromOld}); ` +
            `insert into ${fts}(rowid, ${list}) values (new.rowid, ${fromNew}); end`,
        )
        .execute(db);
    }
  },
  async down(db: Kysely<any>) {
    if (db.getExecutor().adapter instanceof PostgresAdapter) {
      for (const { table } of TABLES) {
        await sql.raw(`drop index ${table}_search_idx`).execute(db);
        await sql.raw(`alter table ${table} drop column search_vector`).execute(db);
      }
      return;
    }
    for (const { table } of TABLES) {
      for (const when of ['update', 'delete', 'insert']) await sql.raw(`drop trigger ${table}_fts_${when}`).execute(db);
      await sql.raw(`drop table ${table}_fts`).execute(db);
    }
  },
};
