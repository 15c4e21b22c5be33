import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import { FROZEN_BLOG_CATEGORIES, FROZEN_BLOG_POSTS } from './0002-blog-seed';
import type { Migration } from './migration';

/**
 * Blog posts, categories and webhook deliveries, with the three seeded posts and categories. The seed rows are
 * frozen beside it (0002-blog-seed.ts: slugs, sanitized HTML and read times already computed), so a later change
 * to the sanitizer, slugify or readTime never changes what this migration writes.
 */
export const blogMigration: Migration = {
  name: '0002-blog',
  async up(db: Kysely<any>) {
    await db.schema
      .createTable('blog_categories')
      .addColumn('id', 'text', (col) => col.primaryKey())
      .addColumn('name', 'text', (col) => col.notNull().unique())
      .addColumn('slug', 'text', (col) => col.notNull().unique())
      .addColumn('description', 'text', (col) => col.notNull())
      .addColumn('created_at', 'text', (col) => col.notNull())
      .execute();

    await db.schema
      .createTable('blog_posts')
      .addColumn('id', 'text', (col) => col.primaryKey())
      .addColumn('slug', 'text', (col) => col.notNull().unique())
      .addColumn('title', 'text', (col) => col.notNull())
      .addColumn('excerpt', 'text', (col) => col.notNull())
      .addColumn('content', 'text', (col) => col.notNull())
      .addColumn('keywords', 'text', (col) => col.notNull())
      .addColumn('author', 'text', (col) => col.notNull())
      .addColumn('category', 'text', (col) => col.notNull())
      .addColumn('category_slug', 'text', (col) => col.notNull())
      .addColumn('status', 'text', (col) => col.notNull())
      .addColumn('featured_image', 'text')
      .addColumn('og_image', 'text')
      .addColumn('read_time', 'integer', (col) => col.notNull())
      .addColumn('views', 'integer', (col) => col.notNull().defaultTo(0))
      .addColumn('meta_description', 'text', (col) => col.notNull())
      .addColumn('source', 'text', (col) => col.notNull())
      .addColumn('published_at', 'text')
      .addColumn('created_at', 'text', (col) => col.notNull())
      .addColumn('updated_at', 'text', (col) => col.notNull())
      .execute();
    await db.schema.createIndex('blog_posts_status_published_idx').on('blog_posts').columns(['status', 'published_at']).execute();
    await db.schema.createIndex('blog_posts_category_slug_idx').on('blog_posts').column('category_slug').execute();

    await db.schema
      .createTable('webhook_deliveries')
      .addColumn('key', 'text', (col) => col.primaryKey())
      .addColumn('body_hash', 'text', (col) => col.notNull())
      .addColumn('result', 'text', (col) => col.notNull())
      .addColumn('created_at', 'text', (col) => col.notNull())
      .execute();

    const now = new Date().toISOString();
    await db
      .insertInto('blog_categories')
      .values(FROZEN_BLOG_CATEGORIES.map((c) => ({ id: randomUUID(), name: c.name, slug: c.slug, description: c.description, created_at: now })))
      .execute();
    await db
      .insertInto('blog_posts')
      .values(
        FROZEN_BLOG_POSTS.map((p) => ({
          id: randomUUID(),
          slug: p.slug,
          title: p.title,
          excerpt: p.excerpt,
          content: p.content,
          keywords: p.keywords,
          author: p.author,
          category: p.category,
          category_slug: p.category_slug,
          status: 'published',
          featured_image: null,
          og_image: null,
          read_time: p.read_time,
          views: p.views,
          meta_description: p.meta_description,
          source: 'local',
          published_at: p.published_at,
          created_at: p.published_at,
          updated_at: p.published_at,
        })),
      )
      .execute();
  },
  async down(db: Kysely<any>) {
    await db.schema.dropTable('webhook_deliveries').execute();
    await db.schema.dropTable('blog_posts').execute();
    await db.schema.dropTable('blog_categories').execute();
  },
};
