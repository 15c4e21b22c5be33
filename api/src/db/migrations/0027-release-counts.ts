import type { Kysely } from 'kysely';
import type { Migration } from './migration';

/*
 * Errors per release (issue 34): one row per remote, release and UTC minute, with that minute's page views, server
 * render errors (and fallbacks) and client errors of the release, added up by every instance (an upsert that adds) and
 * deleted by the retention job after RETENTION_RELEASE_COUNT_DAYS. A row per minute, never a row per event: a release
 * seen every minute of a day is 1,440 rows, whatever its traffic. `last_error` is the latest client error message of
 * the minute as the browser sent it (at most 200 characters, shown escaped). `bucket` leads an index of its own: the
 * window reads (the last 15 minutes) and the retention's deletes are ranges of it.
 */
export const releaseCountsMigration: Migration = {
  name: '0027-release-counts',
  async up(db: Kysely<any>) {
    await db.schema
      .createTable('release_counts')
      .addColumn('app', 'text', (col) => col.notNull())
      .addColumn('release', 'text', (col) => col.notNull())
      // The minute's start, ISO 8601 UTC (2026-11-26T10:02:00.000Z): sorts as text on both engines.
      .addColumn('bucket', 'text', (col) => col.notNull())
      .addColumn('page_views', 'integer', (col) => col.notNull().defaultTo(0))
      .addColumn('render_errors', 'integer', (col) => col.notNull().defaultTo(0))
      .addColumn('client_errors', 'integer', (col) => col.notNull().defaultTo(0))
      .addColumn('last_error', 'text')
      .addPrimaryKeyConstraint('release_counts_pk', ['app', 'release', 'bucket'])
      .execute();
    await db.schema.createIndex('release_counts_bucket_idx').on('release_counts').column('bucket').execute();
  },
  async down(db: Kysely<any>) {
    await db.schema.dropTable('release_counts').execute();
  },
};
