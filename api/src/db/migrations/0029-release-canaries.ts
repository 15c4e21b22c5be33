import { sql, type Kysely } from 'kysely';
import type { Migration } from './migration';

/**
 * Canaries (issue 34): a staged release of a remote served to a share of visitors, sticky per visitor, while the
 * served release keeps the others. One row per canary, on SQLite and PostgreSQL alike, so every instance decides the
 * split from the same row (its `id` is hashed with each visitor's bucket cookie). At most one canary per app runs at a
 * time (`ended_at` null), which a partial unique index holds whatever the callers do; an ended one stays with how it
 * ended (`promoted`, `rolled_back`, `stopped`) and why.
 */
export const releaseCanariesMigration: Migration = {
  name: '0029-release-canaries',
  async up(db: Kysely<any>) {
    await db.schema
      .createTable('release_canaries')
      .addColumn('id', 'text', (col) => col.primaryKey())
      .addColumn('app', 'text', (col) => col.notNull())
      .addColumn('version', 'text', (col) => col.notNull())
      .addColumn('current', 'text', (col) => col.notNull())
      .addColumn('percent', 'integer', (col) => col.notNull())
      .addColumn('started_at', 'text', (col) => col.notNull())
      .addColumn('promote_after', 'text')
      .addColumn('by', 'text', (col) => col.notNull())
      .addColumn('ended_at', 'text')
      .addColumn('outcome', 'text')
      .addColumn('reason', 'text')
      .execute();
    await db.schema.createIndex('release_canaries_running_idx').on('release_canaries').column('app').unique().where(sql.ref('ended_at'), 'is', null).execute();
  },
  async down(db: Kysely<any>) {
    await db.schema.dropTable('release_canaries').execute();
  },
};
