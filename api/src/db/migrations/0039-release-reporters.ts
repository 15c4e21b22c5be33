import type { Kysely } from 'kysely';
import type { Migration } from './migration';

/*
 * Who reported a release's browser errors (issue 51): one row per remote, release and reporter (an HMAC of the
 * visitor's address, an IPv6 one per /64; never the address itself), with the minute it last reported one, written by
 * every instance (an upsert). A release's distinct reporters in a window are its rows seen since the window's start:
 * browser errors move health, the errors alert and a canary's rollback only once enough distinct visitors reported them
 * (release-errors-service.ts), so a few addresses' reports never decide. Deleted with release_counts by the retention job.
 */
export const releaseReportersMigration: Migration = {
  name: '0039-release-reporters',
  async up(db: Kysely<any>) {
    await db.schema
      .createTable('release_reporters')
      .addColumn('app', 'text', (col) => col.notNull())
      .addColumn('release', 'text', (col) => col.notNull())
      .addColumn('reporter', 'text', (col) => col.notNull())
      // The minute's start, ISO 8601 UTC, as release_counts.bucket.
      .addColumn('last_seen', 'text', (col) => col.notNull())
      .addPrimaryKeyConstraint('release_reporters_pk', ['app', 'release', 'reporter'])
      .execute();
    await db.schema.createIndex('release_reporters_last_seen_idx').on('release_reporters').column('last_seen').execute();
  },
  async down(db: Kysely<any>) {
    await db.schema.dropTable('release_reporters').execute();
  },
};
