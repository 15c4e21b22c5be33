import { sql, type Kysely } from 'kysely';
import type { Migration } from './migration';

/**
 * Indexes the load benchmark (api/bench/load.mjs) found missing. With a few thousand posts, half of the server's time
 * went into sorting every post for each `/blog` and `GET /api/posts`, and each webhook delivery scanned the whole
 * delivery log to forget old keys.
 *
 * The blog's lists in the order they are read (newest first: `coalesce(published_at, created_at)`, then created_at,
 * then id), for the public lists (status), a category's (status, category) and the admin's (every post): a page of
 * posts reads its rows from the index and stops after them, instead of sorting every post on each request. The
 * expression is written as the posts repository orders by it (SQLite and PostgreSQL match it as written).
 */
export const indexesMigration: Migration = {
  name: '0008-indexes',
  async up(db: Kysely<any>) {
    await sql`create index blog_posts_status_order_idx on blog_posts (status, (coalesce(published_at, created_at)) desc, created_at desc, id)`.execute(db);
    await sql`create index blog_posts_status_category_order_idx on blog_posts (status, category_slug, (coalesce(published_at, created_at)) desc, created_at desc, id)`.execute(
      db,
    );
    await sql`create index blog_posts_order_idx on blog_posts ((coalesce(published_at, created_at)) desc, created_at desc, id)`.execute(db);
    // The webhook's idempotency keys are forgotten by age (WebhookDeliveriesRepository.prune).
    await db.schema.createIndex('webhook_deliveries_created_at_idx').on('webhook_deliveries').column('created_at').execute();
  },
  async down(db: Kysely<any>) {
    await db.schema.dropIndex('webhook_deliveries_created_at_idx').execute();
    await db.schema.dropIndex('blog_posts_order_idx').execute();
    await db.schema.dropIndex('blog_posts_status_category_order_idx').execute();
    await db.schema.dropIndex('blog_posts_status_order_idx').execute();
  },
};
