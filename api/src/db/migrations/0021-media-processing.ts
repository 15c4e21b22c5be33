import type { Kysely } from 'kysely';
import type { Migration } from './migration';

/*
 * Images are processed after the upload answers (issue 32): a media row is stored with its original when the upload
 * is checked, `state` says whether its variants are being made, ready or failed (`error` says why), and the
 * `media-variants` job claims a row with `claimed_until` (compare-and-set, as the outboxes claim theirs) and counts
 * its `attempts`. Rows stored before are ready. Indexes: the job's queue (state, created_at) and the library's pages
 * (created_at, id), so neither reads the table.
 */
export const mediaProcessingMigration: Migration = {
  name: '0021-media-processing',
  async up(db: Kysely<any>) {
    await db.schema.alterTable('media').addColumn('state', 'text', (col) => col.notNull().defaultTo('ready')).execute();
    await db.schema.alterTable('media').addColumn('error', 'text').execute();
    await db.schema.alterTable('media').addColumn('claimed_until', 'text').execute();
    await db.schema.alterTable('media').addColumn('attempts', 'integer', (col) => col.notNull().defaultTo(0)).execute();
    await db.schema.createIndex('media_state_idx').on('media').columns(['state', 'created_at']).execute();
    // The library's keyset (created_at, id) replaces 0012's index on created_at alone.
    await db.schema.dropIndex('media_created_idx').execute();
    await db.schema.createIndex('media_page_idx').on('media').columns(['created_at', 'id']).execute();
  },
  async down(db: Kysely<any>) {
    await db.schema.dropIndex('media_page_idx').execute();
    await db.schema.createIndex('media_created_idx').on('media').column('created_at').execute();
    await db.schema.dropIndex('media_state_idx').execute();
    for (const column of ['attempts', 'claimed_until', 'error', 'state']) await db.schema.alterTable('media').dropColumn(column).execute();
  },
};
