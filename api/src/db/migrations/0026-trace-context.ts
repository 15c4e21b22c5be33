import type { Kysely } from 'kysely';
import type { Migration } from './migration';

/**
 * The W3C trace of the request that queued a contact mail or an outgoing webhook delivery (issue 35): its
 * `traceparent` (trace id, the request's span, flags) is stored with the row beside its request id (0014), so the mail
 * and each delivery attempt, sent later by whichever instance, carry that trace on (`traceparent` of their own).
 */
export const traceContextMigration: Migration = {
  name: '0026-trace-context',
  async up(db: Kysely<any>) {
    await db.schema.alterTable('contact_messages').addColumn('traceparent', 'text').execute();
    await db.schema.alterTable('outgoing_webhook_deliveries').addColumn('traceparent', 'text').execute();
  },
  async down(db: Kysely<any>) {
    await db.schema.alterTable('outgoing_webhook_deliveries').dropColumn('traceparent').execute();
    await db.schema.alterTable('contact_messages').dropColumn('traceparent').execute();
  },
};
