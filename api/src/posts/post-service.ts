import { randomUUID } from 'node:crypto';
import type { Category, Post, PostList, PostListQueryInput, PostSource, PostStatus, PostSummary } from '@site/contracts/posts';
import type { AdminPostList, AdminPostListQueryInput, DeletedPost, PostRevision, PostRevisionList } from '@site/contracts/admin';
import { createLogger } from '../lib/logger';
import type { PublishedKey, PublishedPart } from './posts-repository';
import { createPostCommands } from './post-commands';
import { createPostHistory } from './post-history';
import type { PostActor, PostServiceDeps } from './post-model';
import { createPostQueries } from './post-queries';
import { createPostWriter } from './post-writer';

// The service is composed by use case: queries (post-queries.ts), commands (post-commands.ts) and history
// (post-history.ts), writing through the shared steps of post-writer.ts.
export type { PostActor, PostEvent, PostServiceDeps } from './post-model';
export { PostValidationError } from './post-validation';

export interface PostService {
  /** Every published post, newest first, optionally filtered by search text and category (name or slug). For feeds. */
  listPublished(filter?: { q?: string; category?: string }): Promise<PostSummary[]>;
  /** One page of published posts (`GET /api/posts`): the query is validated here; a bad cursor is invalid input. */
  pagePublished(query?: PostListQueryInput): Promise<PostList>;
  /** The newest `limit` published posts, newest first: the RSS feed. */
  feed(limit: number): Promise<PostSummary[]>;
  /** The published posts cut into sitemap parts of `size`, oldest first (see PostsRepository.publishedParts). */
  sitemapParts(size: number): Promise<PublishedPart[]>;
  /** The posts of one sitemap part: its first post's key and the part's size. */
  sitemapPart(first: PublishedKey, size: number): Promise<Array<{ slug: string; updatedAt: string }>>;
  /** A published post by slug; 404 'Post not found' otherwise. */
  getPublished(slug: string): Promise<Post>;
  /** Adds one view to a published post and answers the new count. */
  addView(slug: string): Promise<number>;
  /** Categories with at least one published post, counting published posts only (what a reader can open). */
  listCategories(): Promise<Category[]>;
  /** Every post, drafts included, optionally filtered by search text and status. */
  listAll(filter?: { q?: string; status?: PostStatus }): Promise<PostSummary[]>;
  /**
   * One numbered page of every post, drafts included (`GET /api/admin/posts`): search and status filter, `total`
   * matching posts, and the counts per status over all posts. The query is validated here; paging and counting are
   * the database's.
   */
  pageAll(query?: AdminPostListQueryInput): Promise<AdminPostList>;
  getById(id: string): Promise<Post>;
  /**
   * Validates, sanitizes and stores a new post. Drafts unless `allowStatus` (the webhook, imports) and the input
   * carries one; `scheduled` needs a `publishAt` in the future, at most a year ahead.
   */
  create(input: unknown, options?: { source?: PostSource; allowStatus?: boolean; actor?: PostActor }): Promise<Post>;
  /**
   * Validates and stores new content. With `expectedUpdatedAt` (the admin form sends the `updatedAt` it loaded) a post
   * changed meanwhile (webhook, another tab) is refused with PostConflictError and nothing is stored.
   */
  update(id: string, input: unknown, options?: { expectedUpdatedAt?: string; actor?: PostActor }): Promise<Post>;
  /** Deletes the post; its history stays 30 days (listDeleted, undelete). */
  delete(id: string, options?: { actor?: PostActor }): Promise<void>;
  /**
   * Drafts and scheduled posts (conflict otherwise): sets published, updates updatedAt, fills publishedAt when
   * missing ('Publish now' for a scheduled post).
   */
  publish(id: string, options?: { actor?: PostActor }): Promise<Post>;
  /** A draft (or a scheduled post, to move its time) becomes scheduled for `publishAt` (ISO 8601 with offset). */
  schedule(id: string, publishAt: string, options?: { expectedUpdatedAt?: string; actor?: PostActor }): Promise<Post>;
  /** A scheduled post goes back to draft. */
  unschedule(id: string, options?: { actor?: PostActor }): Promise<Post>;
  /**
   * Publishes every scheduled post whose time has come, each exactly once however many instances ask at once (a
   * compare-and-set on the post: one write wins). `publishedAt` is the scheduled time. Answers the posts this call
   * published.
   */
  publishDue(): Promise<Post[]>;
  /** The earliest time a scheduled post is due (ISO), if any. */
  nextScheduledAt(): Promise<string | undefined>;
  /** A post's revisions, newest first (also a deleted post's, for 30 days). */
  revisions(id: string, query?: unknown): Promise<PostRevisionList>;
  revision(id: string, revisionId: string): Promise<PostRevision>;
  /** The post's fields become the revision's, as a new revision; status and slug stay. 409 on a stale version. */
  restoreRevision(id: string, revisionId: string, options: { expectedUpdatedAt: string; actor?: PostActor }): Promise<Post>;
  /** Posts deleted in the last 30 days, most recent first. */
  listDeleted(): Promise<DeletedPost[]>;
  /** A post deleted in the last 30 days comes back as a draft with its last content. */
  undelete(id: string, options?: { actor?: PostActor }): Promise<Post>;
  /** Forgets the histories of posts deleted more than 30 days ago; answers how many. */
  purgeDeleted(): Promise<number>;
  /** Article HTML as `create`/`update` would store it (the admin form's Preview). Nothing is stored. */
  previewContent(input: unknown): { content: string };
}

export function createPostService(deps: PostServiceDeps): PostService {
  const ctx = { ...deps, newId: deps.newId ?? randomUUID, logger: deps.logger ?? createLogger({ level: 'silent' }) };
  const writer = createPostWriter(ctx);
  return { ...createPostQueries(ctx), ...createPostCommands(ctx, writer), ...createPostHistory(ctx, writer) };
}
