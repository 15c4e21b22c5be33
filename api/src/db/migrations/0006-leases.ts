import type { Kysely } from 'kysely';
import type { Migration } from './migration';

/**
 * Leases: work that one instance of many must do alone (the admin health checks every minute) is done by whoever
 * holds its lease; the holder renews it, and another instance takes over once it expires.
 */
export const leasesMigration: Migration = {
  name: '0006-leases',
  async up(db: Kysely<any>) {
    await db.schema
      .createTable('leases')
      .addColumn('name', 'text', (col) => col.primaryKey())
      .addColumn('holder', 'text', (col) => col.notNull())
      .addColumn('expires_at', 'text', (col) => col.notNull())
      .execute();
  },
  async down(db: Kysely<any>) {
    await db.schema.dropTable('leases').execute();
  },
};
