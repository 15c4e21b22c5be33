import type { Kysely } from 'kysely';
import type { Migration } from './migration';

export const eventsMigration: Migration = {
  name: '0001-events',
  async up(db: Kysely<any>) {
    await db.schema
      .createTable('events')
      .addColumn('id', 'text', (col) => col.primaryKey())
      .addColumn('name', 'text', (col) => col.notNull())
      .addColumn('props', 'text')
      .addColumn('path', 'text', (col) => col.notNull())
      .addColumn('at', 'text', (col) => col.notNull())
      .addColumn('received_at', 'text', (col) => col.notNull())
      .execute();
    await db.schema.createIndex('events_name_at_idx').on('events').columns(['name', 'at']).execute();
    await db.schema.createIndex('events_received_at_idx').on('events').column('received_at').execute();
  },
  async down(db: Kysely<any>) {
    await db.schema.dropTable('events').execute();
  },
};
