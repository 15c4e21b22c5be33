import type { Kysely } from 'kysely';
import type { Migration } from './migration';

/*
 * Claims that name their holder (issue 50): the contact mail outbox and the media-variants job claimed a row by
 * setting a time alone, so an instance could not tell its own claim from another's that took over once it lapsed.
 * Each claim now also writes a random token (`mail_claim`, `claim_token`): renewing the lease, releasing the row or
 * recording a failure are compare-and-sets on it, and the leases can be short (30 s mail, 45 s images) because the
 * holder renews them while it works. Nullable, no index: both jobs read their queues by the existing indexes.
 */
export const claimTokensMigration: Migration = {
  name: '0035-claim-tokens',
  async up(db: Kysely<any>) {
    await db.schema.alterTable('contact_messages').addColumn('mail_claim', 'text').execute();
    await db.schema.alterTable('media').addColumn('claim_token', 'text').execute();
  },
  async down(db: Kysely<any>) {
    await db.schema.alterTable('media').dropColumn('claim_token').execute();
    await db.schema.alterTable('contact_messages').dropColumn('mail_claim').execute();
  },
};
