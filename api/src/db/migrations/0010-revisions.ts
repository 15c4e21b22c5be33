import type { Kysely } from 'kysely';
import type { Migration } from './migration';

/** The post fields a revision keeps (admin contract `revisionPostSchema`), from a blog_posts row of this moment. */
function snapshotOf(row: Record<string, unknown>) {
  let keywords: unknown;
  try {
    keywords = JSON.parse(String(row.keywords));
  } catch {
    keywords = [];
  }
  return {
    title: row.title,
    slug: row.slug,
    excerpt: row.excerpt,
    content: row.content,
    keywords: Array.isArray(keywords) ? keywords : [],
    author: row.author,
    category: row.category,
    categorySlug: row.category_slug,
    status: row.status,
    featuredImage: row.featured_image ?? null,
    ogImage: row.og_image ?? null,
    metaDescription: row.meta_description,
    publishedAt: row.published_at ?? null,
    publishAt: null,
  };
}

/**
 * Scheduled publishing and revision history (issue 23).
 *
 * - `blog_posts.publish_at`: when a `scheduled` post is published (ISO UTC); the scheduler reads the due ones by
 *   (status, publish_at).
 * - `blog_post_revisions`: one immutable row per save of a post (who, when, what changed, the whole post as JSON),
 *   numbered per post. Rows outlive their post by 30 days (the admin's "Recently deleted"). Every existing post comes
 *   in with one revision, made by the system, holding the post as it is now.
 */
export const revisionsMigration: Migration = {
  name: '0010-revisions',
  async up(db: Kysely<any>) {
    await db.schema.alterTable('blog_posts').addColumn('publish_at', 'text').execute();
    await db.schema.createIndex('blog_posts_status_publish_at_idx').on('blog_posts').columns(['status', 'publish_at']).execute();
    await db.schema
      .createTable('blog_post_revisions')
      .addColumn('id', 'text', (col) => col.primaryKey())
      .addColumn('post_id', 'text', (col) => col.notNull())
      .addColumn('number', 'integer', (col) => col.notNull())
      .addColumn('created_at', 'text', (col) => col.notNull())
      .addColumn('action', 'text', (col) => col.notNull())
      .addColumn('author_kind', 'text', (col) => col.notNull())
      .addColumn('author_label', 'text', (col) => col.notNull())
      .addColumn('changed_fields', 'text', (col) => col.notNull())
      .addColumn('restored_from', 'integer')
      .addColumn('snapshot', 'text', (col) => col.notNull())
      .addUniqueConstraint('blog_post_revisions_post_number_key', ['post_id', 'number'])
      .execute();
    await db.schema.createIndex('blog_post_revisions_post_created_idx').on('blog_post_revisions').columns(['post_id', 'created_at']).execute();
    // "Recently deleted" and the 30-day purge read the delete revisions by time.
    await db.schema.createIndex('blog_post_revisions_action_created_idx').on('blog_post_revisions').columns(['action', 'created_at']).execute();

    // Existing posts: one revision each, in batches (a blog of tens of thousands of posts is not read at once).
    const now = new Date().toISOString();
    const fields = Object.keys(snapshotOf({}));
    let after = '';
    for (;;) {
      const rows = (await db.selectFrom('blog_posts').selectAll().where('id', '>', after).orderBy('id').limit(200).execute()) as Array<
        Record<string, unknown>
      >;
      if (rows.length === 0) break;
      await db
        .insertInto('blog_post_revisions')
        .values(
          rows.map((row) => ({
            id: `${String(row.id)}-r1`,
            post_id: row.id,
            number: 1,
            created_at: String(row.updated_at ?? now),
            action: 'import',
            author_kind: 'system',
            author_label: 'Existing post (before history was kept)',
            changed_fields: JSON.stringify(fields),
            restored_from: null,
            snapshot: JSON.stringify(snapshotOf(row)),
          })),
        )
        .execute();
      after = String(rows.at(-1)!.id);
    }
  },
  async down(db: Kysely<any>) {
    await db.schema.dropTable('blog_post_revisions').execute();
    await db.schema.dropIndex('blog_posts_status_publish_at_idx').execute();
    await db.schema.alterTable('blog_posts').dropColumn('publish_at').execute();
  },
};
