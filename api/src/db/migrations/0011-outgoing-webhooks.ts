import type { Kysely } from 'kysely';
import type { Migration } from './migration';

/**
 * Outgoing webhooks (issue 24).
 *
 * - `outgoing_webhook_endpoints`: the owner's endpoints, each with its own HMAC signing secret (stored as is: the site
 *   signs with it; the admin API shows it once), the events it wants, and its failure state.
 * - `outgoing_webhook_deliveries`: the delivery outbox, one row per event x endpoint, written with the event. Every
 *   instance polls it; a row is claimed by moving `next_attempt_at` forward (compare-and-set), so one instance sends it.
 */
export const outgoingWebhooksMigration: Migration = {
  name: '0011-outgoing-webhooks',
  async up(db: Kysely<any>) {
    await db.schema
      .createTable('outgoing_webhook_endpoints')
      .addColumn('id', 'text', (col) => col.primaryKey())
      .addColumn('url', 'text', (col) => col.notNull())
      .addColumn('description', 'text', (col) => col.notNull())
      .addColumn('events', 'text', (col) => col.notNull())
      .addColumn('enabled', 'integer', (col) => col.notNull())
      .addColumn('secret', 'text', (col) => col.notNull())
      .addColumn('disabled_reason', 'text')
      .addColumn('failing_since', 'text')
      .addColumn('created_at', 'text', (col) => col.notNull())
      .addColumn('updated_at', 'text', (col) => col.notNull())
      .execute();
    await db.schema
      .createTable('outgoing_webhook_deliveries')
      .addColumn('id', 'text', (col) => col.primaryKey())
      .addColumn('endpoint_id', 'text', (col) => col.notNull())
      .addColumn('event_id', 'text', (col) => col.notNull())
      .addColumn('event_type', 'text', (col) => col.notNull())
      .addColumn('payload', 'text', (col) => col.notNull())
      .addColumn('created_at', 'text', (col) => col.notNull())
      // pending -> delivered | failed
      .addColumn('status', 'text', (col) => col.notNull())
      .addColumn('attempts', 'integer', (col) => col.notNull().defaultTo(0))
      .addColumn('next_attempt_at', 'text')
      .addColumn('last_attempt_at', 'text')
      .addColumn('response_status', 'integer')
      .addColumn('latency_ms', 'integer')
      .addColumn('response_excerpt', 'text')
      .addColumn('delivered_at', 'text')
      .addColumn('redelivery_of', 'text')
      .execute();
    await db.schema.createIndex('outgoing_webhook_deliveries_due_idx').on('outgoing_webhook_deliveries').columns(['status', 'next_attempt_at']).execute();
    await db.schema
      .createIndex('outgoing_webhook_deliveries_endpoint_idx')
      .on('outgoing_webhook_deliveries')
      .columns(['endpoint_id', 'created_at'])
      .execute();
  },
  async down(db: Kysely<any>) {
    await db.schema.dropTable('outgoing_webhook_deliveries').execute();
    await db.schema.dropTable('outgoing_webhook_endpoints').execute();
  },
};
