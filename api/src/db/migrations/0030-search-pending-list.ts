import { PostgresAdapter, sql, type Kysely } from 'kysely';
import type { Migration } from './migration';

/*
 * PostgreSQL: the search indexes (GIN, migration 0017) without their pending list (issue 32). With `fastupdate` (the
 * default) a GIN index queues new rows' entries in a list that every search reads in full until VACUUM merges them,
 * so a search's cost grew with the rows written since the last vacuum, not with its page; a table written a row at a
 * time (a post, a lead) gains nothing from batching its entries. Off, each write puts its entries in the index itself; the list left now is
 * merged here. SQLite's FTS5 index has no such list (its segments are merged as they are written).
 */
const INDEXES = ['blog_posts_search_idx', 'contact_messages_search_idx'];

export const searchPendingListMigration: Migration = {
  name: '0030-search-pending-list',
  async up(db: Kysely<any>) {
    if (!(db.getExecutor().adapter instanceof PostgresAdapter)) return;
    for (const index of INDEXES) {
      await sql`alter index ${sql.id(index)} set (fastupdate = off)`.execute(db);
      await sql`select gin_clean_pending_list(${index}::regclass)`.execute(db);
    }
  },
  async down(db: Kysely<any>) {
    if (!(db.getExecutor().adapter instanceof PostgresAdapter)) return;
    for (const index of INDEXES) await sql`alter index ${sql.id(index)} reset (fastupdate)`.execute(db);
  },
};
