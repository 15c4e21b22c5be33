import type { Kysely } from 'kysely';
import type { Migration } from './migration';

/**
 * Releases shared by every instance (PostgreSQL): `npm run deploy` stores a remote's built files once, by content
 * hash, and moves the remote's pointer in the same transaction; each instance copies the pointer's release to its own
 * disk and says what it serves. (Created on SQLite too, where one instance keeps releases in its folder and these
 * tables stay empty.)
 */
export const releasesMigration: Migration = {
  name: '0007-releases',
  async up(db: Kysely<any>) {
    // One file's bytes (base64), named by their SHA-256: a file shared by many releases is stored once.
    await db.schema
      .createTable('release_blobs')
      .addColumn('hash', 'text', (col) => col.primaryKey())
      .addColumn('size', 'integer', (col) => col.notNull())
      .addColumn('content', 'text', (col) => col.notNull())
      .execute();
    // A release: never changed once written. `files` is JSON { "<path in the dist>": "<hash>" }; `digest` the hash of
    // that list, so the same files under the same name are recognised as the same release.
    await db.schema
      .createTable('releases')
      .addColumn('remote', 'text', (col) => col.notNull())
      .addColumn('version', 'text', (col) => col.notNull())
      .addColumn('digest', 'text', (col) => col.notNull())
      .addColumn('manifest', 'text', (col) => col.notNull())
      .addColumn('files', 'text', (col) => col.notNull())
      .addColumn('created_at', 'text', (col) => col.notNull())
      .addPrimaryKeyConstraint('releases_pk', ['remote', 'version'])
      .execute();
    // Which release each remote serves, the stack a rollback pops and what happened (history.json's fields).
    await db.schema
      .createTable('release_pointers')
      .addColumn('remote', 'text', (col) => col.primaryKey())
      .addColumn('version', 'text', (col) => col.notNull())
      .addColumn('since', 'text', (col) => col.notNull())
      .addColumn('stack', 'text', (col) => col.notNull())
      .addColumn('log', 'text', (col) => col.notNull())
      .execute();
    // What each instance serves, as it last said.
    await db.schema
      .createTable('release_instances')
      .addColumn('instance', 'text', (col) => col.notNull())
      .addColumn('remote', 'text', (col) => col.notNull())
      .addColumn('version', 'text')
      .addColumn('since', 'text')
      .addColumn('problem', 'text')
      .addColumn('reported_at', 'text', (col) => col.notNull())
      .addPrimaryKeyConstraint('release_instances_pk', ['instance', 'remote'])
      .execute();
  },
  async down(db: Kysely<any>) {
    for (const table of ['release_instances', 'release_pointers', 'releases', 'release_blobs']) await db.schema.dropTable(table).execute();
  },
};
