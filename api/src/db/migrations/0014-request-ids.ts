import type { Kysely } from 'kysely';
import type { Migration } from './migration';

/**
 * The request that queued a contact mail or an outgoing webhook delivery (issue 25): its id (X-Request-Id) is stored
 * with the row, so the log lines of sending it, whenever and by whichever instance, carry the id of that request.
 */
export const requestIdsMigration: Migration = {
  name: '0014-request-ids',
  async up(db: Kysely<any>) {
    await db.schema.alterTable('contact_messages').addColumn('request_id', 'text').execute();
    await db.schema.alterTable('outgoing_webhook_deliveries').addColumn('request_id', 'text').execute();
  },
  async down(db: Kysely<any>) {
    await db.schema.alterTable('outgoing_webhook_deliveries').dropColumn('request_id').execute();
    await db.schema.alterTable('contact_messages').dropColumn('request_id').execute();
  },
};
