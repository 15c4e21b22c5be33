import type { Kysely } from 'kysely';
import type { Migration } from './migration';

/**
 * Staged releases in the shared store (issue 34, PostgreSQL): a release uploaded staged is stored like any other, with
 * `staged_at` set, and served to no one but a browser with its preview link until it is promoted (then `staged_at` is
 * cleared as the pointer moves to it). On SQLite the table stays empty (staged releases are folders: staged/<version>/).
 */
export const stagedReleasesMigration: Migration = {
  name: '0028-staged-releases',
  async up(db: Kysely<any>) {
    await db.schema.alterTable('releases').addColumn('staged_at', 'text').execute();
  },
  async down(db: Kysely<any>) {
    await db.schema.alterTable('releases').dropColumn('staged_at').execute();
  },
};
