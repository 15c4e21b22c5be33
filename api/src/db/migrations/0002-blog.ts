import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import { readTime, slugify } from '@site/contracts/posts';
import { sanitizePostHtml } from '../../services/sanitize-post-html';
import { SEED_CATEGORIES, SEED_POSTS } from '../seed/blog-seed';
import type { Migration } from './migration';

/** Blog posts, categories and webhook deliveries, with the three seeded posts and categories. */
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
      .values(SEED_CATEGORIES.map((c) => ({ id: randomUUID(), name: c.name, slug: slugify(c.name), description: c.description, created_at: now })))
      .execute();
    await db
      .insertInto('blog_posts')
      .values(
        SEED_POSTS.map((p) => {
          const content = sanitizePostHtml(p.content);
          return {
            id: randomUUID(),
            slug: slugify(p.title),
            title: p.title,
            excerpt: p.excerpt,
            content,
            keywords: JSON.stringify(p.keywords),
            author: p.author,
            category: p.category,
            category_slug: slugify(p.category),
            status: 'published',
            featured_image: null,
            og_image: null,
            read_time: readTime(content),
            views: p.views,
            meta_description: p.metaDescription,
            source: 'local',
            published_at: p.publishedAt,
            created_at: p.publishedAt,
            updated_at: p.publishedAt,
          };
        }),
      )
      .execute();
  },
  async down(db: Kysely<any>) {
    await db.schema.dropTable('webhook_deliveries').execute();
    await db.schema.dropTable('blog_posts').execute();
    await db.schema.dropTable('blog_categories').execute();
  },
};
