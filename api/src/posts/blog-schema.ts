import type { Selectable } from 'kysely';

/** Tables of the blog (see migrations/0002-blog.ts). Conventions as in schema.ts. */
export interface BlogPostsTable {
  id: string;
  slug: string;
  title: string;
  excerpt: string;
  /** Sanitized HTML. */
  content: string;
  /** JSON array of strings. */
  keywords: string;
  author: string;
  /** Display name of the category; `category_slug` is what filters and counts use. */
  category: string;
  category_slug: string;
  status: string;
  /** Null means the placeholder image. */
  featured_image: string | null;
  /** Null means: the featured image, then the placeholder. */
  og_image: string | null;
  read_time: number;
  views: number;
  meta_description: string;
  source: string;
  published_at: string | null;
  /** A scheduled post's publishing time (ISO UTC); null for any other status. */
  publish_at: string | null;
  created_at: string;
  updated_at: string;
}

/** One save of a post (migration 0010): immutable, numbered per post, kept 30 days after the post is deleted. */
export interface BlogPostRevisionsTable {
  id: string;
  post_id: string;
  number: number;
  created_at: string;
  action: string;
  author_kind: string;
  author_label: string;
  /** JSON array of field names. */
  changed_fields: string;
  restored_from: number | null;
  /** JSON of the post's fields (admin contract `revisionPostSchema`). */
  snapshot: string;
}

export interface BlogCategoriesTable {
  id: string;
  name: string;
  slug: string;
  description: string;
  created_at: string;
}

/** First answer to each webhook delivery, keyed by Idempotency-Key (or the signature when none is sent). */
export interface WebhookDeliveriesTable {
  key: string;
  body_hash: string;
  /** JSON of the 201 answer. */
  result: string;
  created_at: string;
}

/**
 * PostgreSQL only: what the admin's ranked search reads of each post, narrow (migration 0031), kept by a trigger on
 * blog_posts, never written here. The search vector is `tsvector`, read in SQL only.
 */
export interface BlogPostSearchTable {
  id: string;
  status: string;
  category_slug: string;
  published_at: string | null;
  created_at: string;
  search_vector: unknown;
}

/** How many posts have each status and category: kept by triggers on blog_posts (migration 0009), never written here. */
export interface BlogPostCountsTable {
  status: string;
  category_slug: string;
  posts: number;
}

export interface BlogTables {
  blog_posts: BlogPostsTable;
  blog_post_counts: BlogPostCountsTable;
  blog_post_search: BlogPostSearchTable;
  blog_categories: BlogCategoriesTable;
  blog_post_revisions: BlogPostRevisionsTable;
  webhook_deliveries: WebhookDeliveriesTable;
}

export type BlogPostRow = Selectable<BlogPostsTable>;
