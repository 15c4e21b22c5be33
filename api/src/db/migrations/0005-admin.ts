import type { Kysely } from 'kysely';
import type { Migration } from './migration';

/**
 * The admin panel: server-side sessions (only the SHA-256 of the cookie's token is stored), alert settings and
 * history, a small key/value store for monitoring state (latest health results, last seen versions), and the
 * read/handled state of contact messages.
 */
export const adminMigration: Migration = {
  name: '0005-admin',
  async up(db: Kysely<any>) {
    await db.schema
      .createTable('admin_sessions')
      .addColumn('id_hash', 'text', (col) => col.primaryKey())
      .addColumn('created_at', 'text', (col) => col.notNull())
      .addColumn('last_seen_at', 'text', (col) => col.notNull())
      .addColumn('active_section', 'text', (col) => col.notNull())
      .execute();

    await db.schema
      .createTable('alert_settings')
      .addColumn('type', 'text', (col) => col.primaryKey())
      .addColumn('enabled', 'integer', (col) => col.notNull())
      .addColumn('email', 'integer', (col) => col.notNull())
      .addColumn('threshold', 'integer')
      .addColumn('updated_at', 'text', (col) => col.notNull())
      .execute();

    await db.schema
      .createTable('alerts')
      .addColumn('id', 'text', (col) => col.primaryKey())
      .addColumn('type', 'text', (col) => col.notNull())
      .addColumn('severity', 'text', (col) => col.notNull())
      .addColumn('title', 'text', (col) => col.notNull())
      .addColumn('message', 'text', (col) => col.notNull())
      .addColumn('detail', 'text')
      .addColumn('created_at', 'text', (col) => col.notNull())
      .addColumn('email_sent', 'integer', (col) => col.notNull().defaultTo(0))
      .addColumn('email_sent_at', 'text')
      .addColumn('acknowledged_at', 'text')
      .execute();
    await db.schema.createIndex('alerts_created_at_idx').on('alerts').column('created_at').execute();
    await db.schema.createIndex('alerts_type_email_idx').on('alerts').columns(['type', 'email_sent_at']).execute();

    await db.schema
      .createTable('admin_state')
      .addColumn('key', 'text', (col) => col.primaryKey())
      .addColumn('value', 'text', (col) => col.notNull())
      .addColumn('updated_at', 'text', (col) => col.notNull())
      .execute();

    await db.schema.alterTable('contact_messages').addColumn('read_at', 'text').execute();
    await db.schema.alterTable('contact_messages').addColumn('handled_at', 'text').execute();
  },
  async down(db: Kysely<any>) {
    await db.schema.alterTable('contact_messages').dropColumn('handled_at').execute();
    await db.schema.alterTable('contact_messages').dropColumn('read_at').execute();
    await db.schema.dropTable('admin_state').execute();
    await db.schema.dropTable('alerts').execute();
    await db.schema.dropTable('alert_settings').execute();
    await db.schema.dropTable('admin_sessions').execute();
  },
};
