import type { Kysely } from 'kysely';
import type { Migration } from './migration';

/** Analyses of the free analysis tool: shareable by id, and looked up by cache key for the 24-hour cache. */
export const analysesMigration: Migration = {
  name: '0004-analyses',
  async up(db: Kysely<any>) {
    await db.schema
      .createTable('analyses')
      .addColumn('id', 'text', (col) => col.primaryKey())
      .addColumn('cache_key', 'text', (col) => col.notNull())
      .addColumn('mode', 'text', (col) => col.notNull())
      .addColumn('created_at', 'text', (col) => col.notNull())
      .addColumn('report', 'text', (col) => col.notNull())
      .execute();
    await db.schema.createIndex('analyses_cache_key_created_at_idx').on('analyses').columns(['cache_key', 'created_at']).execute();
  },
  async down(db: Kysely<any>) {
    await db.schema.dropTable('analyses').execute();
  },
};
