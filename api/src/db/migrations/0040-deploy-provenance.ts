import type { Kysely } from 'kysely';
import type { Migration } from './migration';

/*
 * Where a release came from (issue 52): the notes, commit and pipeline URL its upload named, on each deploy log entry
 * about it (its upload's entry, and the promotions, canaries and rollbacks of it, which carry the upload's). The
 * release's provenance is its upload's entry: the log is the one record of releases on either store.
 */
export const deployProvenanceMigration: Migration = {
  name: '0040-deploy-provenance',
  async up(db: Kysely<any>) {
    await db.schema.alterTable('deploy_log').addColumn('notes', 'text').execute();
    await db.schema.alterTable('deploy_log').addColumn('commit_sha', 'text').execute();
    await db.schema.alterTable('deploy_log').addColumn('ci_url', 'text').execute();
  },
  async down(db: Kysely<any>) {
    await db.schema.alterTable('deploy_log').dropColumn('ci_url').execute();
    await db.schema.alterTable('deploy_log').dropColumn('commit_sha').execute();
    await db.schema.alterTable('deploy_log').dropColumn('notes').execute();
  },
};
