import type { Kysely } from 'kysely';
import type { Migration } from './migration';

/*
 * The contact form's Idempotency-Key (issue 50): each submission carries a key of its own, kept when the visitor or the
 * form sends it again, and the message is stored with it. The unique index is what makes a repeat store nothing: two
 * requests with one key, on one instance or two, cannot both insert (`on conflict do nothing`), so the database, not a
 * check before the insert, decides which one stores the lead. Messages sent without a key (older forms, API callers)
 * keep a null key; both SQLite and PostgreSQL let a unique index hold any number of nulls.
 */
export const contactIdempotencyMigration: Migration = {
  name: '0034-contact-idempotency',
  async up(db: Kysely<any>) {
    await db.schema.alterTable('contact_messages').addColumn('idempotency_key', 'text').execute();
    await db.schema.createIndex('contact_messages_idempotency_key').unique().on('contact_messages').column('idempotency_key').execute();
  },
  async down(db: Kysely<any>) {
    await db.schema.dropIndex('contact_messages_idempotency_key').execute();
    await db.schema.alterTable('contact_messages').dropColumn('idempotency_key').execute();
  },
};
