import type { Kysely } from 'kysely';
import type { PostSource, PostStatus } from '@site/contracts/posts';
import type { InTransaction } from '../db/in-transaction';
import type { Database } from '../db/schema';
import type { BoundedCount } from '../db/full-text-search';
import { createPostsReadRepository } from './posts-read-repository';
import { createPostsSearch } from './posts-search-repository';
import { createPostsWriteRepository } from './posts-write-repository';
import { createPostRevisionsRepository } from './post-revisions-repository';

/** A post as stored: image fields may be null (the service resolves the fallbacks). */
export interface StoredPost {
  id: string;
  slug: string;
  title: string;
  excerpt: string;
  content: string;
  keywords: string[];
  author: string;
  category: string;
  categorySlug: string;
  status: PostStatus;
  featuredImage: string | null;
  ogImage: string | null;
  readTime: number;
  views: number;
  metaDescription: string;
  source: PostSource;
  publishedAt: string | null;
  /** A scheduled post's publishing time (ISO UTC); null for any other status. */
  publishAt: string | null;
  createdAt: string;
  updatedAt: string;
}

/** A revision to store with a write (the same transaction): everything but its number, which the repository gives. */
export interface NewRevision {
  id: string;
  createdAt: string;
  action: string;
  authorKind: string;
  authorLabel: string;
  changedFields: string[];
  restoredFrom: number | null;
  /** The post's fields as stored by this write (admin contract `revisionPostSchema`). */
  snapshot: Record<string, unknown>;
}

export interface StoredRevision extends Omit<NewRevision, 'snapshot'> {
  postId: string;
  number: number;
  snapshot: Record<string, unknown>;
}

/** A post as a list shows it: every stored field but the article itself (lists never read `content`). */
export type StoredPostSummary = Omit<StoredPost, 'content'>;

export interface StoredCategory {
  id: string;
  name: string;
  slug: string;
  description: string;
  /** Derived: the number of published posts in the category, never stored. */
  postCount: number;
}

/** Which posts a list shows: status, category slug, and search text over title, excerpt and category. */
export interface PostFilter {
  status?: PostStatus;
  categorySlug?: string;
  q?: string;
}

/** Where a page starts: the sort key of the last post of the previous page (newest first, see `list`). */
export interface PostPosition {
  /** Published date, or creation date for a post never published. */
  sortedAt: string;
  createdAt: string;
  id: string;
}

/** A published post's place in publication order. */
export interface PublishedKey {
  publishedAt: string;
  id: string;
}

export interface PublishedPart {
  first: PublishedKey;
  count: number;
  /** The newest `updated_at` of the part. */
  lastmod: string;
}

export interface PostPage extends BoundedCount {
  posts: StoredPostSummary[];
  /**
   * Every post matching the filter, across all pages; with search text counted up to SEARCH_RANK_LIMIT
   * (`totalIsLowerBound` when more match).
   */
  total: number;
  /** Position of the last post when more follow. */
  next: PostPosition | undefined;
}

export interface PostsRepository {
  /** Newest first (published date, then creation). Lists read no article content. */
  list(filter?: PostFilter): Promise<StoredPostSummary[]>;
  /** One page of `list`: up to `limit` posts after `after` (keyset pagination, stable while posts are added). */
  page(filter: PostFilter, options: { limit: number; after?: PostPosition }): Promise<PostPage>;
  /**
   * The admin's search: the best `limit` posts matching `filter.q` among the newest SEARCH_RANK_LIMIT (1,000) matches
   * of the filter (best match first, then `list`'s order) and `total`, the matches counted up to SEARCH_RANK_LIMIT
   * (`totalIsLowerBound` when more match). One page: a rank is no stable position to page from.
   */
  ranked(filter: PostFilter, limit: number): Promise<{ posts: StoredPostSummary[] } & BoundedCount>;
  /**
   * The admin's pages of `list` by keyset: up to `limit` posts `after` a position (older) or `before` one (newer),
   * read from the order indexes (migration 0008), never an OFFSET; `more` says whether another page lies beyond in
   * the direction read; `total` from the kept counts (migration 0009).
   */
  pageBoth(filter: PostFilter, options: { limit: number; after?: PostPosition; before?: PostPosition }): Promise<{ posts: StoredPostSummary[]; total: number; more: boolean }>;
  /** How many posts have each status, over every post (one grouped count); 0 for a status no post has. */
  countByStatus(): Promise<Record<PostStatus, number>>;
  /** The newest `limit` published posts, newest first (the feed): read through the (status, published_at) index. */
  newestPublished(limit: number): Promise<StoredPostSummary[]>;
  /**
   * The published posts cut into parts of `size`, oldest first (published date, then id), so that a new post only
   * changes the last part: each part's first post, its size and its newest change. Reads the index keys, no post.
   */
  publishedParts(size: number): Promise<PublishedPart[]>;
  /** Up to `limit` published posts from `first` on (inclusive), oldest first: one part of `publishedParts`. */
  publishedFrom(first: PublishedKey, limit: number): Promise<Array<{ slug: string; updatedAt: string }>>;
  findById(id: string): Promise<StoredPost | undefined>;
  findBySlug(slug: string): Promise<StoredPost | undefined>;
  /** Slugs equal to `base` or `base-<n>`, to pick the next free one. */
  slugsLike(base: string): Promise<Set<string>>;
  /**
   * Stores a new post: `false` when its slug is taken (the unique index decides, whichever instance wrote first), so
   * the caller picks another; any other failure throws.
   */
  insert(post: StoredPost, revision?: NewRevision, also?: InTransaction): Promise<boolean>;
  /**
   * Writes every field of the post: `false` when nothing matched, i.e. the post is gone or, with a condition, it no
   * longer has that `updatedAt` / status (another request changed it first), or with `changesRestoredFields` it already
   * has every field a restore writes as `post` has them (the restore would change nothing). A compare-and-set in one
   * UPDATE.
   */
  update(
    post: StoredPost,
    where?: { updatedAt?: string; status?: PostStatus; publishAtBefore?: string; changesRestoredFields?: boolean },
    revision?: NewRevision,
    also?: InTransaction,
  ): Promise<boolean>;
  /** Deletes the post (and stores `revision`, its last state, in the same transaction); false when there was none. */
  delete(id: string, revision?: NewRevision, also?: InTransaction): Promise<boolean>;
  /** Scheduled posts whose time is at or before `now`, oldest time first (the scheduler's work). */
  dueScheduled(now: string, limit: number): Promise<StoredPost[]>;
  /** The earliest time of a scheduled post, if any (the scheduler sets its timer by it). */
  nextScheduledAt(): Promise<string | undefined>;
  /** A post's revisions, newest first, and how many it has. */
  revisions(postId: string, options: { limit: number; offset: number }): Promise<{ revisions: StoredRevision[]; total: number }>;
  revision(postId: string, revisionId: string): Promise<StoredRevision | undefined>;
  /** The last revision of a post (for a deleted post: its delete revision). */
  latestRevision(postId: string): Promise<StoredRevision | undefined>;
  /** Delete revisions since `since` of posts that do not exist now, newest first. */
  deletedSince(since: string): Promise<StoredRevision[]>;
  /** Drops every revision of posts deleted before `before` (and not restored). Answers how many posts' histories went. */
  purgeDeleted(before: string): Promise<number>;
  /** Adds 1 to the views of a published post; the new count, or undefined when there is none. */
  incrementViews(slug: string): Promise<number | undefined>;
  /** The categories that have published posts, with their number of published posts. */
  listCategories(): Promise<StoredCategory[]>;
  /** Creates the category unless one with this slug exists. */
  ensureCategory(category: { id: string; name: string; slug: string; description: string; createdAt: string }): Promise<void>;
}

/** Storage of posts and categories, one SQL path for SQLite and PostgreSQL: reads, search, writes and history. */
export function createPostsRepository(db: Kysely<Database>): PostsRepository {
  const search = createPostsSearch(db);
  return {
    ...createPostsReadRepository(db, search),
    ranked: search.ranked,
    ...createPostsWriteRepository(db),
    ...createPostRevisionsRepository(db),
  };
}

export interface StoredDelivery {
  bodyHash: string;
  result: string;
  createdAt: string;
}

/** The webhook's replay memory: one row per key (signature, Idempotency-Key); each call is one statement. */
export interface WebhookDeliveriesRepository {
  /** The stored deliveries among `keys`, by key. */
  find(keys: readonly string[]): Promise<Map<string, StoredDelivery>>;
  /**
   * Claims the keys not taken yet, with an empty result: answers the keys this call claimed (those missing were
   * taken first, by a concurrent retry on this instance or another; the unique key decides).
   */
  claim(keys: readonly string[], delivery: { bodyHash: string; createdAt: string }): Promise<string[]>;
  /** Stores the answer of deliveries claimed with an empty result. */
  complete(keys: readonly string[], result: string): Promise<void>;
  /** Forgets keys (claims whose delivery failed, so a corrected retry may use them). */
  release(keys: readonly string[]): Promise<void>;
  /** Forgets deliveries older than `before` (ISO time). */
  prune(before: string): Promise<void>;
}

export function createWebhookDeliveriesRepository(db: Kysely<Database>): WebhookDeliveriesRepository {
  return {
    async find(keys) {
      const found = new Map<string, StoredDelivery>();
      if (keys.length === 0) return found;
      const rows = await db.selectFrom('webhook_deliveries').select(['key', 'body_hash', 'result', 'created_at']).where('key', 'in', keys).execute();
      for (const row of rows) found.set(row.key, { bodyHash: row.body_hash, result: row.result, createdAt: row.created_at });
      return found;
    },
    async claim(keys, d) {
      if (keys.length === 0) return [];
      const rows = await db
        .insertInto('webhook_deliveries')
        .values(keys.map((key) => ({ key, body_hash: d.bodyHash, result: '', created_at: d.createdAt })))
        .onConflict((oc) => oc.column('key').doNothing())
        .returning('key')
        .execute();
      return rows.map((r) => r.key);
    },
    async complete(keys, result) {
      if (keys.length === 0) return;
      await db.updateTable('webhook_deliveries').set({ result }).where('key', 'in', keys).execute();
    },
    async release(keys) {
      if (keys.length === 0) return;
      await db.deleteFrom('webhook_deliveries').where('key', 'in', keys).execute();
    },
    async prune(before) {
      await db.deleteFrom('webhook_deliveries').where('created_at', '<', before).execute();
    },
  };
}
