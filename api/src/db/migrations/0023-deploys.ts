import type { Kysely } from 'kysely';
import type { Migration } from './migration';

/*
 * Deploys over HTTP (issue 33).
 * - `deploy_tokens`: what the admin issued to a team's CI: a name, the apps it may deploy (JSON array), the SHA-256
 *   of the token (the token itself is shown once and never stored), its last use, and when it was revoked.
 * - `deploy_log`: every deploy, rollback and refusal, written when it happens (the admin dashboard's deploy log);
 *   paged newest first by (at, id).
 */
export const deploysMigration: Migration = {
  name: '0023-deploys',
  async up(db: Kysely<any>) {
    await db.schema
      .createTable('deploy_tokens')
      .addColumn('id', 'text', (col) => col.primaryKey())
      .addColumn('name', 'text', (col) => col.notNull())
      .addColumn('apps', 'text', (col) => col.notNull())
      .addColumn('token_hash', 'text', (col) => col.notNull().unique())
      .addColumn('created_at', 'text', (col) => col.notNull())
      .addColumn('last_used_at', 'text')
      .addColumn('last_used_from', 'text')
      .addColumn('revoked_at', 'text')
      .execute();
    await db.schema
      .createTable('deploy_log')
      .addColumn('id', 'text', (col) => col.primaryKey())
      .addColumn('at', 'text', (col) => col.notNull())
      .addColumn('app', 'text', (col) => col.notNull())
      .addColumn('action', 'text', (col) => col.notNull())
      .addColumn('version', 'text')
      .addColumn('previous', 'text')
      .addColumn('result', 'text', (col) => col.notNull())
      .addColumn('by', 'text', (col) => col.notNull())
      .addColumn('from_address', 'text')
      .addColumn('message', 'text')
      .execute();
    await db.schema.createIndex('deploy_log_page_idx').on('deploy_log').columns(['at', 'id']).execute();
    await db.schema.createIndex('deploy_log_app_idx').on('deploy_log').columns(['app', 'at', 'id']).execute();
  },
  async down(db: Kysely<any>) {
    await db.schema.dropTable('deploy_log').execute();
    await db.schema.dropTable('deploy_tokens').execute();
  },
};
