import type { Kysely } from 'kysely';
import type { Migration } from './migration';

/*
 * Published posts in publication order, ties by id (issue 32): the order of the sitemap's parts and, read backward, of
 * the RSS feed. With the id in the index a part is read from its first post's key as a range of this index, a page
 * long, and the feed's newest 50 are its last 50 entries: neither sorts, neither reads a post outside its page. (The
 * (status, published_at) index of 0002 left the ties and the `or` of the keyset to a scan from the first published post.)
 */
export const publishedOrderMigration: Migration = {
  name: '0025-published-order',
  async up(db: Kysely<any>) {
    await db.schema.createIndex('blog_posts_status_published_id_idx').on('blog_posts').columns(['status', 'published_at', 'id']).execute();
  },
  async down(db: Kysely<any>) {
    await db.schema.dropIndex('blog_posts_status_published_id_idx').execute();
  },
};
