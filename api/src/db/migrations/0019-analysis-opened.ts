import type { Kysely } from 'kysely';
import type { Migration } from './migration';

/*
 * When a stored analysis' permalink was last opened (issue 32: analyses are kept a year unless their permalink was
 * opened recently), and an index on `created_at` for the retention to find the old ones without reading the table.
 */
export const analysisOpenedMigration: Migration = {
  name: '0019-analysis-opened',
  async up(db: Kysely<any>) {
    await db.schema.alterTable('analyses').addColumn('opened_at', 'text').execute();
    await db.schema.createIndex('analyses_created_at_idx').on('analyses').column('created_at').execute();
  },
  async down(db: Kysely<any>) {
    await db.schema.dropIndex('analyses_created_at_idx').execute();
    await db.schema.alterTable('analyses').dropColumn('opened_at').execute();
  },
};
