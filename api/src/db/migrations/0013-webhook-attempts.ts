import type { Kysely } from 'kysely';
import type { Migration } from './migration';

/**
 * Every attempt of an outgoing webhook delivery (issue 24): the delivery row keeps the latest, this table all of them
 * (when, the receiver's status or the network error, latency), so the owner can read a delivery's whole retry history.
 * Written in the same transaction as the delivery's update.
 */
export const webhookAttemptsMigration: Migration = {
  name: '0013-webhook-attempts',
  async up(db: Kysely<any>) {
    await db.schema
      .createTable('outgoing_webhook_attempts')
      .addColumn('delivery_id', 'text', (col) => col.notNull())
      .addColumn('attempt', 'integer', (col) => col.notNull())
      .addColumn('at', 'text', (col) => col.notNull())
      // delivered | retrying | failed
      .addColumn('outcome', 'text', (col) => col.notNull())
      .addColumn('response_status', 'integer')
      .addColumn('latency_ms', 'integer')
      .addColumn('response_excerpt', 'text')
      .addPrimaryKeyConstraint('outgoing_webhook_attempts_pk', ['delivery_id', 'attempt'])
      .execute();
  },
  async down(db: Kysely<any>) {
    await db.schema.dropTable('outgoing_webhook_attempts').execute();
  },
};
