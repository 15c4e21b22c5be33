import { PostgresAdapter, sql, type Kysely } from 'kysely';
import type { Migration } from './migration';

/**
 * The media library (issue 24): one row per uploaded image (its variants' names and sizes as JSON), and the variant
 * files themselves in `media_blobs` when the database is the store (PostgreSQL, so every instance serves the same
 * files; on SQLite the files live in DATA_DIR/media and the table stays empty).
 */
export const mediaMigration: Migration = {
  name: '0012-media',
  async up(db: Kysely<any>) {
    const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
    await db.schema
      .createTable('media')
      .addColumn('id', 'text', (col) => col.primaryKey())
      .addColumn('hash', 'text', (col) => col.notNull().unique())
      .addColumn('filename', 'text', (col) => col.notNull())
      .addColumn('alt', 'text', (col) => col.notNull())
      .addColumn('format', 'text', (col) => col.notNull())
      .addColumn('width', 'integer', (col) => col.notNull())
      .addColumn('height', 'integer', (col) => col.notNull())
      .addColumn('bytes', 'integer', (col) => col.notNull())
      .addColumn('variants', 'text', (col) => col.notNull())
      .addColumn('created_at', 'text', (col) => col.notNull())
      .execute();
    await db.schema.createIndex('media_created_idx').on('media').column('created_at').execute();
    await db.schema
      .createTable('media_blobs')
      .addColumn('name', 'text', (col) => col.primaryKey())
      .addColumn('content', postgres ? sql`bytea` : sql`blob`, (col) => col.notNull())
      .addColumn('size', 'integer', (col) => col.notNull())
      .addColumn('created_at', 'text', (col) => col.notNull())
      .execute();
  },
  async down(db: Kysely<any>) {
    await db.schema.dropTable('media_blobs').execute();
    await db.schema.dropTable('media').execute();
  },
};
