// How a post and a revision sit in their rows: shared by the reads, the search, the writes and the history.
import { sql, type Selectable } from 'kysely';
import type { PostSource, PostStatus } from '@site/contracts/posts';
import type { BlogPostRevisionsTable, BlogPostRow } from './blog-schema';
import type { StoredPost, StoredPostSummary, StoredRevision } from './posts-repository';

type BlogPostRevisionRow = Selectable<BlogPostRevisionsTable>;

/** Newest first: the published date, or the creation date of a post never published. */
export const SORTED_AT = sql<string>`coalesce(published_at, created_at)`;

/** A count as the database answers it: PostgreSQL a bigint count or sum as text, SQLite a number. */
export type CountValue = number | string | bigint;

export function toRow(post: StoredPost) {
  return {
    id: post.id,
    slug: post.slug,
    title: post.title,
    excerpt: post.excerpt,
    content: post.content,
    keywords: JSON.stringify(post.keywords),
    author: post.author,
    category: post.category,
    category_slug: post.categorySlug,
    status: post.status,
    featured_image: post.featuredImage,
    og_image: post.ogImage,
    read_time: post.readTime,
    views: post.views,
    meta_description: post.metaDescription,
    source: post.source,
    published_at: post.publishedAt,
    publish_at: post.publishAt,
    created_at: post.createdAt,
    updated_at: post.updatedAt,
  };
}

/** Every column but `content`: what the lists read (an article can be tens of kilobytes; a list shows none). */
export const SUMMARY_COLUMNS = [
  'id',
  'slug',
  'title',
  'excerpt',
  'keywords',
  'author',
  'category',
  'category_slug',
  'status',
  'featured_image',
  'og_image',
  'read_time',
  'views',
  'meta_description',
  'source',
  'published_at',
  'publish_at',
  'created_at',
  'updated_at',
] as const satisfies ReadonlyArray<Exclude<keyof BlogPostRow, 'content'>>;

export function toStoredPost(row: BlogPostRow): StoredPost {
  return { ...toStoredSummary(row), content: row.content };
}

export function toStoredSummary(row: Omit<BlogPostRow, 'content'>): StoredPostSummary {
  let keywords: string[] = [];
  try {
    const parsed: unknown = JSON.parse(row.keywords);
    if (Array.isArray(parsed)) keywords = parsed.filter((k): k is string => typeof k === 'string');
  } catch {
    keywords = [];
  }
  return {
    id: row.id,
    slug: row.slug,
    title: row.title,
    excerpt: row.excerpt,
    keywords,
    author: row.author,
    category: row.category,
    categorySlug: row.category_slug,
    status: row.status as PostStatus,
    featuredImage: row.featured_image,
    ogImage: row.og_image,
    readTime: Number(row.read_time),
    views: Number(row.views),
    metaDescription: row.meta_description,
    source: row.source as PostSource,
    publishedAt: row.published_at,
    publishAt: row.publish_at ?? null,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

export function toStoredRevision(row: BlogPostRevisionRow): StoredRevision {
  const parse = (text: string, fallback: unknown) => {
    try {
      return JSON.parse(text) as unknown;
    } catch {
      return fallback;
    }
  };
  const fields = parse(row.changed_fields, []);
  const snapshot = parse(row.snapshot, {});
  return {
    id: row.id,
    postId: row.post_id,
    number: Number(row.number),
    createdAt: row.created_at,
    action: row.action,
    authorKind: row.author_kind,
    authorLabel: row.author_label,
    changedFields: Array.isArray(fields) ? fields.filter((f): f is string => typeof f === 'string') : [],
    restoredFrom: row.restored_from === null ? null : Number(row.restored_from),
    snapshot: typeof snapshot === 'object' && snapshot !== null ? (snapshot as Record<string, unknown>) : {},
  };
}
