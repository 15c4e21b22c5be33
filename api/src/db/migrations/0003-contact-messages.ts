import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Migration } from './migration';

/**
 * Contact-form messages, each with its owner-mail status (the outbox), and the per-install salt
 * that client IPs are hashed with: created once here, so every install has its own.
 */
export const contactMessagesMigration: Migration = {
  name: '0003-contact-messages',
  async up(db: Kysely<any>) {
    await db.schema
      .createTable('contact_messages')
      .addColumn('id', 'text', (col) => col.primaryKey())
      .addColumn('created_at', 'text', (col) => col.notNull())
      .addColumn('ip_hash', 'text', (col) => col.notNull())
      .addColumn('user_agent', 'text')
      .addColumn('name', 'text', (col) => col.notNull())
      .addColumn('email', 'text', (col) => col.notNull())
      .addColumn('company', 'text')
      .addColumn('subject', 'text')
      .addColumn('message', 'text', (col) => col.notNull())
      // pending -> sent | failed; `disabled` when no SMTP_URL was configured at the time.
      .addColumn('mail_status', 'text', (col) => col.notNull())
      .addColumn('mail_attempts', 'integer', (col) => col.notNull().defaultTo(0))
      .addColumn('mail_next_attempt_at', 'text')
      .addColumn('mail_last_error', 'text')
      .addColumn('mail_sent_at', 'text')
      .execute();
    await db.schema
      .createIndex('contact_messages_outbox_idx')
      .on('contact_messages')
      .columns(['mail_status', 'mail_next_attempt_at'])
      .execute();
    await db.schema.createIndex('contact_messages_created_at_idx').on('contact_messages').column('created_at').execute();

    await db.schema
      .createTable('contact_settings')
      .addColumn('key', 'text', (col) => col.primaryKey())
      .addColumn('value', 'text', (col) => col.notNull())
      .execute();
    await db.insertInto('contact_settings').values({ key: 'ip_salt', value: randomBytes(32).toString('hex') }).execute();
  },
  async down(db: Kysely<any>) {
    await db.schema.dropTable('contact_settings').execute();
    await db.schema.dropTable('contact_messages').execute();
  },
};
