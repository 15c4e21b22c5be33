import { randomUUID } from 'node:crypto';
import {
  normalizePostInput,
  PLACEHOLDER_IMAGE,
  POST_MIN_RULES,
  postInputSchema,
  postListQuerySchema,
  postRuleIssues,
  isPostSlug,
  postValidationMessages,
  readTime,
  slugify,
  uniqueSlug,
  validationFailedMessage,
  type Category,
  type Post,
  type PostInput,
  type PostList,
  type PostListQueryInput,
  type PostSource,
  type PostStatus,
  type PostSummary,
} from '@site/contracts/posts';
import {
  ADMIN_MESSAGES,
  DELETED_POST_RETENTION_MS,
  PUBLISH_ONLY_DRAFTS,
  REVISION_ACTIONS,
  REVISION_AUTHOR_KINDS,
  adminPostListQuerySchema,
  adminPostPreviewRequestSchema,
  postRevisionListQuerySchema,
  revisionPostSchema,
  type AdminPostList,
  type AdminPostListQueryInput,
  type DeletedPost,
  type PostRevision,
  type PostRevisionList,
  type PostRevisionSummary,
  type RevisionAction,
  type RevisionPost,
} from '@site/contracts/admin';
import { SCHEDULE_MESSAGES, parsePublishAt, publishAtProblem } from '@site/contracts/post-schedule';
import { describeIssues, fieldIssues, type FieldIssue } from '@site/contracts/error';
import { isRecordKey } from '@site/contracts/text';
import type { ChangeEvents, InTransaction } from '../db/in-transaction';
import type { NewRevision, PostFilter, PostPosition, PostsRepository, PublishedKey, PublishedPart, StoredPost, StoredPostSummary, StoredRevision } from './posts-repository';
import { postChangeTags } from '../lib/content-tags';
import { createLogger, type Logger } from '../lib/logger';
import { ConflictError, DomainError, InvalidInputError, NotFoundError } from '../lib/domain-errors';
import type { Clock } from '../lib/clock';
import { sanitizePostHtml } from './sanitize-post-html';

export const POST_NOT_FOUND = 'Post not found';

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


/** Who saves a post: kept with each revision. */
export type PostActor = { kind: 'admin' } | { kind: 'webhook'; source: string } | { kind: 'schedule' } | { kind: 'system' };

function actorLabel(actor: PostActor): string {
  switch (actor.kind) {
    case 'admin':
      return 'Admin';
    case 'webhook':
      return `Webhook (${actor.source})`;
    case 'schedule':
      return 'Scheduled publishing';
    case 'system':
      return 'System';
  }
}

const REVISION_FIELDS = Object.keys(revisionPostSchema.shape) as Array<keyof RevisionPost>;

/** The fields a revision keeps, from a stored post. */
export function revisionSnapshot(p: StoredPost): RevisionPost {
  return {
    title: p.title,
    slug: p.slug,
    excerpt: p.excerpt,
    content: p.content,
    keywords: p.keywords,
    author: p.author,
    category: p.category,
    categorySlug: p.categorySlug,
    status: p.status,
    featuredImage: p.featuredImage,
    ogImage: p.ogImage,
    metaDescription: p.metaDescription,
    publishedAt: p.publishedAt,
    publishAt: p.publishAt,
  };
}

/** Field names whose values differ between two versions (every field when there is no earlier one). */
export function changedFields(before: RevisionPost | undefined, after: RevisionPost): string[] {
  if (!before) return [...REVISION_FIELDS];
  return REVISION_FIELDS.filter((field) => JSON.stringify(before[field]) !== JSON.stringify(after[field]));
}

export const REVISION_NOT_FOUND = 'Revision not found';
export const DELETED_POST_NOT_FOUND = 'This post was not deleted in the last 30 days';

/** The post changed since the caller loaded it; `details.current` is the stored version. */
export class PostConflictError extends DomainError {
  readonly kind = 'conflict';
  constructor(current: Post) {
    super('conflict', ADMIN_MESSAGES.postConflict, { details: { current } });
  }
}

export class PostValidationError extends InvalidInputError {
  /**
   * `messages` are the spec's sentences (the admin form shows them); `issues` say the same per field in an API
   * caller's words (`title: must be at least 5 characters (got 3)`), for the webhook.
   */
  constructor(
    readonly messages: string[],
    readonly issues: FieldIssue[] = messages.map((message) => ({ path: '(body)', message })),
  ) {
    super(validationFailedMessage(messages), { details: messages });
  }
}

const notFound = () => new NotFoundError(POST_NOT_FOUND);

/** Slug choices from the stored ones before a random suffix guarantees progress under a burst of one title. */
const SLUG_ATTEMPTS = 5;

export const INVALID_CURSOR = 'The cursor is not valid. Start again from the first page.';

/** The opaque cursor of a page: its last position as base64url JSON. */
export function encodeCursor(position: PostPosition): string {
  return Buffer.from(JSON.stringify([position.sortedAt, position.createdAt, position.id])).toString('base64url');
}

export function decodeCursor(cursor: string): PostPosition {
  try {
    const value: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (Array.isArray(value) && value.length === 3 && value.every((v) => typeof v === 'string' && v.length > 0 && v.length <= 100)) {
      const [sortedAt, createdAt, id] = value as [string, string, string];
      return { sortedAt, createdAt, id };
    }
  } catch {
    // fall through: not base64url JSON
  }
  throw new InvalidInputError(INVALID_CURSOR, { code: 'invalid_cursor' });
}

export const SEARCH_TAKES_NO_CURSOR = 'A search answers one page, best match first: send no cursor with q.';

/** The admin list's cursor: which way to read and from which post (its place in the list's order), base64url JSON. */
export function encodeAdminCursor(towards: 'older' | 'newer', post: Pick<StoredPostSummary, 'publishedAt' | 'createdAt' | 'id'>): string {
  return Buffer.from(JSON.stringify([towards === 'older' ? 'o' : 'n', post.publishedAt ?? post.createdAt, post.createdAt, post.id])).toString('base64url');
}

export function decodeAdminCursor(cursor: string): PostPosition & { towards: 'older' | 'newer' } {
  try {
    const value: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (Array.isArray(value) && value.length === 4 && (value[0] === 'o' || value[0] === 'n') && value.slice(1).every((v) => typeof v === 'string' && v.length > 0 && v.length <= 100)) {
      const [way, sortedAt, createdAt, id] = value as [string, string, string, string];
      return { towards: way === 'o' ? 'older' : 'newer', sortedAt, createdAt, id };
    }
  } catch {
    // fall through: not base64url JSON
  }
  throw new InvalidInputError(INVALID_CURSOR, { code: 'invalid_cursor' });
}

/** Published posts matching the search text and a category given by name or slug (both slugify alike). */
function publishedFilter(filter: { q?: string; category?: string }): PostFilter {
  const category = filter.category?.trim();
  return { status: 'published', q: filter.q, categorySlug: category ? slugify(category) : undefined };
}

/** A stored post as the API shows it: image fallbacks resolved (ogImage -> featuredImage -> placeholder). */
export function toPost(p: StoredPost): Post {
  return { ...toSummary(p), content: p.content };
}

/**
 * A post as lists show it: the API's post without its content (lists read none from the database). Built field by
 * field, once per row of a page: cheaper than copying the row and deleting `content`.
 */
export function toSummary(p: StoredPostSummary): PostSummary {
  return {
    id: p.id,
    title: p.title,
    slug: p.slug,
    excerpt: p.excerpt,
    keywords: p.keywords,
    author: p.author,
    publishedAt: p.publishedAt,
    publishAt: p.publishAt,
    createdAt: p.createdAt,
    updatedAt: p.updatedAt,
    status: p.status,
    featuredImage: p.featuredImage ?? PLACEHOLDER_IMAGE,
    category: p.category,
    categorySlug: p.categorySlug,
    readTime: p.readTime,
    views: p.views,
    metaDescription: p.metaDescription,
    ogImage: p.ogImage ?? p.featuredImage ?? PLACEHOLDER_IMAGE,
    source: p.source,
  };
}

/** Parses the shape with the contract, trims, then applies the spec's length rules and sanitizes the HTML. */
export function validatePost(input: unknown) {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) {
    throw new PostValidationError(['The body must be a JSON object'], [{ path: '(body)', message: 'The body must be a JSON object' }]);
  }
  // A missing required field is reported with the spec's own "at least N characters" message.
  const filled: Record<string, unknown> = { ...input };
  const missing = new Set<string>();
  for (const rule of POST_MIN_RULES) {
    if (filled[rule.field] === undefined || filled[rule.field] === null) {
      filled[rule.field] = '';
      missing.add(rule.field);
    }
  }
  const shape = postInputSchema.safeParse(filled);
  if (!shape.success) {
    const issues = fieldIssues(shape.error);
    throw new PostValidationError(
      issues.map((i) => `${i.path === '(body)' ? 'body' : i.path}: ${i.message}`),
      issues,
    );
  }
  const normalized = normalizePostInput(shape.data as PostInput);
  const content = sanitizePostHtml(normalized.content);
  // Length rules on the text the visitor will get: a payload that sanitizes to nothing is too short.
  const messages = postValidationMessages({ ...normalized, content });
  if (messages.length > 0) {
    const issues = postRuleIssues({ ...normalized, content }, missing).map((issue) =>
      issue.path === 'content' && content.length !== normalized.content.length
        ? { ...issue, message: `${issue.message.replace(/\)$/, '')} after removing unsafe HTML)` }
        : issue,
    );
    throw new PostValidationError(messages, issues);
  }
  return { ...normalized, content };
}

/** What a create or an update sets from validated input: the same fields, derived the same way. */
function writableFields(v: ReturnType<typeof validatePost>, categorySlug: string, status: StoredPost['status']) {
  return {
    title: v.title,
    excerpt: v.excerpt,
    content: v.content,
    keywords: v.keywords,
    author: v.author,
    category: v.category,
    categorySlug,
    status,
    featuredImage: v.featuredImage ?? null,
    ogImage: v.ogImage ?? null,
    readTime: readTime(v.content),
    metaDescription: v.metaDescription,
  } satisfies Partial<StoredPost>;
}

/** A revision's writable fields checked as if sent now: the rules and the sanitizer run again (restore, undelete). */
function validateRevisionFields(old: RevisionPost) {
  return validatePost({
    title: old.title,
    excerpt: old.excerpt,
    content: old.content,
    author: old.author,
    category: old.category,
    metaDescription: old.metaDescription,
    keywords: old.keywords,
    ...(old.featuredImage ? { featuredImage: old.featuredImage } : {}),
    ...(old.ogImage ? { ogImage: old.ogImage } : {}),
  });
}

/** A schedule's time from input: the instant as ISO UTC, or a validation error naming `publishAt`. */
function checkedPublishAt(value: string | undefined, now: Date): string {
  if (value === undefined || value.trim() === '') {
    throw new PostValidationError([SCHEDULE_MESSAGES.required], [{ path: 'publishAt', message: SCHEDULE_MESSAGES.required }]);
  }
  const problem = publishAtProblem(value.trim(), now);
  if (problem) throw new PostValidationError([problem], [{ path: 'publishAt', message: problem }]);
  return parsePublishAt(value.trim())!.toISOString();
}

function toRevisionSummary(r: StoredRevision): PostRevisionSummary {
  const snapshot = r.snapshot as Partial<RevisionPost>;
  return {
    id: r.id,
    postId: r.postId,
    number: r.number,
    createdAt: r.createdAt,
    action: (REVISION_ACTIONS as readonly string[]).includes(r.action) ? (r.action as RevisionAction) : 'update',
    author: {
      kind: (REVISION_AUTHOR_KINDS as readonly string[]).includes(r.authorKind) ? (r.authorKind as PostRevisionSummary['author']['kind']) : 'system',
      label: r.authorLabel,
    },
    changedFields: r.changedFields,
    restoredFrom: r.restoredFrom,
    title: typeof snapshot.title === 'string' ? snapshot.title : '',
    status: snapshot.status ?? 'draft',
  };
}

/** A change told to `onPostEvent`: the post as it is after the change (as it was, for a delete). */
export interface PostEvent {
  type: 'post.published' | 'post.updated' | 'post.deleted';
  post: Post;
}

export function createPostService(deps: {
  posts: PostsRepository;
  clock: Clock;
  newId?: () => string;
  /**
   * Told, after each stored change of public content, which pages it touches (lib/content-tags.ts): the render cache
   * drops them, here and on every instance. Called before the change's caller gets its answer.
   */
  onContentChange?: (tags: string[]) => void;
  /**
   * Each stored change a subscriber outside may care about (outgoing webhooks): a post published (by hand, by the n8n
   * webhook or by the scheduler), a published post saved again, a post deleted. Written in the change's transaction
   * (with its revision), so the change is never stored without its event; committed before the caller's answer.
   */
  events?: ChangeEvents<PostEvent>;
  logger?: Logger;
  /**
   * The alt text the owner wrote on the Media screen, by image address (an address of no image with one is left out):
   * a post a reader gets carries its featured image's as `featuredImageAlt`.
   */
  imageAlts?: (urls: readonly string[]) => Promise<ReadonlyMap<string, string>>;
}): PostService {
  const { posts, clock } = deps;
  const newId = deps.newId ?? randomUUID;
  const logger = deps.logger ?? createLogger({ level: 'silent' });

  /** Tells the render cache which public pages a change touched (nothing for drafts and scheduled posts). */
  function tell(...versions: Array<StoredPostSummary | undefined>) {
    if (!deps.onContentChange) return;
    const tags = postChangeTags(...versions);
    if (tags.length > 0) deps.onContentChange(tags);
  }

  /** The event a write stores with itself (none without a subscriber, or when `type` is undefined). */
  function eventOf(type: PostEvent['type'] | undefined, post: StoredPost): InTransaction | undefined {
    return type && deps.events ? deps.events.inTransaction({ type, post: toPost(post) }) : undefined;
  }

  /** The posts with their featured image's alt text, where the media library has one (one lookup for the lot). */
  async function withAlts<P extends PostSummary>(list: P[]): Promise<P[]> {
    if (!deps.imageAlts || list.length === 0) return list;
    const alts = await deps.imageAlts(list.map((p) => p.featuredImage));
    return list.map((p) => {
      const alt = alts.get(p.featuredImage);
      return alt ? { ...p, featuredImageAlt: alt } : p;
    });
  }

  /** After a write that stored an event: the outbox sends it. */
  const committed = () => deps.events?.committed();

  function published(post: StoredPost, actor: PostActor, scheduledFor?: string) {
    logger.info(
      {
        event: 'post.published',
        postId: post.id,
        slug: post.slug,
        by: actor.kind,
        ...(scheduledFor ? { scheduledFor, delayMs: Date.parse(post.updatedAt) - Date.parse(scheduledFor) } : {}),
      },
      'post.published',
    );
  }

  /** The event a write from `before` to `after` stores: going public, or a change of a post that is public. */
  const eventTypeOf = (before: StoredPost | undefined, after: StoredPost): PostEvent['type'] | undefined =>
    after.status !== 'published' ? undefined : before?.status === 'published' ? 'post.updated' : 'post.published';

  /**
   * The one publish step: what follows every stored change of a post, whichever path wrote it (admin, webhook,
   * scheduler, restore, undelete, delete): the `post.published` line when it went public, the render cache told which
   * public pages changed, and the outbox kicked when the write stored an event.
   */
  function afterWrite(before: StoredPost | undefined, after: StoredPost | undefined, actor: PostActor, options: { event: boolean; scheduledFor?: string }) {
    if (after?.status === 'published' && before?.status !== 'published') published(after, actor, options.scheduledFor);
    tell(before, after);
    if (options.event) committed();
  }

  /**
   * Writes `after` over `before` when the stored post still matches `where` (compare-and-set), with its revision and
   * its event in the same transaction, then the publish step. False when another write came first (nothing stored).
   */
  async function writeOver(
    before: StoredPost,
    after: StoredPost,
    where: Parameters<typeof posts.update>[1],
    action: RevisionAction,
    actor: PostActor,
    extra: { restoredFrom?: number; scheduledFor?: string } = {},
  ): Promise<boolean> {
    const event = eventOf(eventTypeOf(before, after), after);
    if (!(await posts.update(after, where, revisionOf(action, actor, before, after, extra.restoredFrom ?? null), event))) return false;
    afterWrite(before, after, actor, { event: event !== undefined, scheduledFor: extra.scheduledFor });
    return true;
  }

  /** The revision a write stores: who, when, what, and the post as written. */
  function revisionOf(action: RevisionAction, actor: PostActor, before: StoredPost | undefined, after: StoredPost, restoredFrom: number | null = null): NewRevision {
    const snapshot = revisionSnapshot(after);
    return {
      id: newId(),
      createdAt: after.updatedAt,
      action,
      authorKind: actor.kind,
      authorLabel: actorLabel(actor),
      changedFields: changedFields(before ? revisionSnapshot(before) : undefined, snapshot),
      restoredFrom,
      snapshot,
    };
  }

  async function ensureCategory(name: string, categorySlug: string, now: string) {
    await posts.ensureCategory({ id: newId(), name, slug: categorySlug, description: `Articles about ${name}.`, createdAt: now });
  }

  async function mustFind(id: string) {
    if (!isRecordKey(id)) throw notFound();
    const post = await posts.findById(id);
    if (!post) throw notFound();
    return post;
  }

  /** Inserts a new post under its title's slug or the next free one (the unique index decides between racers). */
  async function insertWithFreeSlug(make: (slug: string) => StoredPost, base: string, action: RevisionAction, actor: PostActor, preferred?: string) {
    for (let attempt = 0; ; attempt++) {
      const slug =
        attempt === 0
          ? (preferred ?? base)
          : attempt <= SLUG_ATTEMPTS
            ? uniqueSlug(base, await posts.slugsLike(base))
            : `${base}-${randomUUID().slice(0, 8)}`;
      const post = make(slug);
      const event = eventOf(eventTypeOf(undefined, post), post);
      if (await posts.insert(post, revisionOf(action, actor, undefined, post), event)) {
        afterWrite(undefined, post, actor, { event: event !== undefined });
        return post;
      }
      if (attempt > SLUG_ATTEMPTS + 1) throw new ConflictError('The post could not get a free address. Please try again.');
    }
  }

  const service: PostService = {
    async listPublished(filter = {}) {
      return (await posts.list(publishedFilter(filter))).map(toSummary);
    },

    async pagePublished(input = {}) {
      const parsed = postListQuerySchema.safeParse(input);
      if (!parsed.success) {
        const issues = fieldIssues(parsed.error);
        throw new InvalidInputError(describeIssues(issues), { details: issues });
      }
      const query = parsed.data;
      const after = query.cursor ? decodeCursor(query.cursor) : undefined;
      const page = await posts.page(publishedFilter(query), { limit: query.limit, after });
      return {
        posts: await withAlts(page.posts.map(toSummary)),
        total: page.total,
        ...(query.q ? { totalIsLowerBound: page.totalIsLowerBound } : {}),
        nextCursor: page.next ? encodeCursor(page.next) : null,
      };
    },

    async getPublished(slug) {
      if (!isPostSlug(slug)) throw notFound();
      const post = await posts.findBySlug(slug);
      if (!post || post.status !== 'published') throw notFound();
      return (await withAlts([toPost(post)]))[0]!;
    },

    async addView(slug) {
      if (!isPostSlug(slug)) throw notFound();
      const views = await posts.incrementViews(slug);
      if (views === undefined) throw notFound();
      return views;
    },

    async listCategories() {
      return posts.listCategories();
    },

    async feed(limit) {
      return (await posts.newestPublished(limit)).map(toSummary);
    },

    sitemapParts: (size) => posts.publishedParts(size),
    sitemapPart: (first, size) => posts.publishedFrom(first, size),

    async listAll(filter = {}) {
      return (await posts.list({ q: filter.q, status: filter.status })).map(toSummary);
    },

    async pageAll(input = {}) {
      const parsed = adminPostListQuerySchema.safeParse(input);
      if (!parsed.success) {
        const issues = fieldIssues(parsed.error);
        throw new InvalidInputError(describeIssues(issues), { details: issues });
      }
      const { q, status, cursor, limit } = parsed.data;
      if (q) {
        // A search is one ranked page (the best `limit` matches); a rank is no stable position to page from.
        if (cursor) throw new InvalidInputError(SEARCH_TAKES_NO_CURSOR, { code: 'invalid_cursor' });
        const [matching, counts] = await Promise.all([posts.ranked({ q, status }, limit), posts.countByStatus()]);
        return { posts: matching.posts.map(toSummary), total: matching.total, totalIsLowerBound: matching.totalIsLowerBound, limit, nextCursor: null, prevCursor: null, counts };
      }
      const at = cursor ? decodeAdminCursor(cursor) : undefined;
      const [page, counts] = await Promise.all([
        posts.pageBoth({ status }, { limit, after: at?.towards === 'older' ? at : undefined, before: at?.towards === 'newer' ? at : undefined }),
        posts.countByStatus(),
      ]);
      const first = page.posts[0];
      const last = page.posts[page.posts.length - 1];
      const towards = at?.towards ?? 'older';
      return {
        posts: page.posts.map(toSummary),
        total: page.total,
        limit,
        // Read older: another page beyond when `more`; read newer: the page we came from lies older.
        nextCursor: last && (towards === 'newer' || page.more) ? encodeAdminCursor('older', last) : null,
        prevCursor: first && at && (towards === 'older' || page.more) ? encodeAdminCursor('newer', first) : null,
        counts,
      };
    },

    async getById(id) {
      return toPost(await mustFind(id));
    },

    async create(input, options = {}) {
      const v = validatePost(input);
      const nowDate = clock();
      const now = nowDate.toISOString();
      const status = options.allowStatus && v.status ? v.status : 'draft';
      if (v.publishAt !== undefined && status !== 'scheduled') {
        throw new PostValidationError([SCHEDULE_MESSAGES.onlyScheduled], [{ path: 'publishAt', message: SCHEDULE_MESSAGES.onlyScheduled }]);
      }
      const publishAt = status === 'scheduled' ? checkedPublishAt(v.publishAt, nowDate) : null;
      const actor = options.actor ?? (options.source === 'n8n' ? { kind: 'webhook', source: 'n8n' } : { kind: 'admin' });
      const categorySlug = slugify(v.category);
      await ensureCategory(v.category, categorySlug, now);
      // The database's unique index on the slug decides: two posts with one title written at once (by this process or
      // another instance) get two slugs, the loser of each race picking the next free one. The title's own slug is
      // tried first: a new title costs one indexed insert, and only a taken one reads the slugs like it (a scan).
      const post = await insertWithFreeSlug(
        (slug) => ({
          id: newId(),
          slug,
          ...writableFields(v, categorySlug, status),
          views: 0,
          source: options.source ?? 'local',
          publishedAt: status === 'published' ? now : null,
          publishAt,
          createdAt: now,
          updatedAt: now,
        }),
        slugify(v.title),
        'create',
        actor,
      );
      return toPost(post);
    },

    async update(id, input, options = {}) {
      const v = validatePost(input);
      // The write only lands on the version that was read (compare-and-set on updatedAt): a change made meanwhile by
      // another request or instance is a conflict for the form, and a plain retry for a caller without a version.
      for (let attempt = 0; attempt < 3; attempt++) {
        const written = await updateVersion(id, v, options.expectedUpdatedAt, options.actor ?? { kind: 'admin' });
        if (written) return written;
      }
      throw new PostConflictError(toPost(await mustFind(id)));
    },

    async delete(id, options = {}) {
      const existing = await mustFind(id);
      const gone: StoredPost = { ...existing, updatedAt: clock().toISOString() };
      const actor = options.actor ?? { kind: 'admin' };
      const event = eventOf('post.deleted', gone);
      if (!(await posts.delete(id, revisionOf('delete', actor, existing, gone), event))) throw notFound();
      afterWrite(existing, undefined, actor, { event: event !== undefined });
    },

    previewContent(input) {
      const parsed = adminPostPreviewRequestSchema.safeParse(input);
      if (!parsed.success) {
        const issues = fieldIssues(parsed.error);
        throw new PostValidationError(issues.map((i) => `${i.path}: ${i.message}`), issues);
      }
      return { content: sanitizePostHtml(parsed.data.content.trim()) };
    },

    async publish(id, options = {}) {
      const actor = options.actor ?? { kind: 'admin' };
      const existing = await mustFind(id);
      if (existing.status !== 'draft' && existing.status !== 'scheduled') throw new ConflictError(PUBLISH_ONLY_DRAFTS);
      const now = clock().toISOString();
      const updated: StoredPost = { ...existing, status: 'published', updatedAt: now, publishedAt: existing.publishedAt ?? now, publishAt: null };
      // Still unpublished, and the version we read: of two publishes at once (two tabs, two instances) one wins, one is told.
      if (!(await writeOver(existing, updated, { updatedAt: existing.updatedAt, status: existing.status }, 'publish', actor))) {
        const current = await mustFind(id);
        if (current.status !== 'draft' && current.status !== 'scheduled') throw new ConflictError(PUBLISH_ONLY_DRAFTS);
        throw new PostConflictError(toPost(current));
      }
      return toPost(updated);
    },

    async schedule(id, publishAtInput, options = {}) {
      const existing = await mustFind(id);
      if (options.expectedUpdatedAt !== undefined && existing.updatedAt !== options.expectedUpdatedAt) throw new PostConflictError(toPost(existing));
      if (existing.status !== 'draft' && existing.status !== 'scheduled') throw new ConflictError(SCHEDULE_MESSAGES.onlyDraftsOrScheduled);
      const nowDate = clock();
      const publishAt = checkedPublishAt(publishAtInput, nowDate);
      const updated: StoredPost = { ...existing, status: 'scheduled', publishAt, updatedAt: nowDate.toISOString() };
      if (!(await writeOver(existing, updated, { updatedAt: existing.updatedAt, status: existing.status }, 'schedule', options.actor ?? { kind: 'admin' }))) {
        throw new PostConflictError(toPost(await mustFind(id)));
      }
      return toPost(updated);
    },

    async unschedule(id, options = {}) {
      const existing = await mustFind(id);
      if (existing.status !== 'scheduled') throw new ConflictError(SCHEDULE_MESSAGES.notScheduled);
      const updated: StoredPost = { ...existing, status: 'draft', publishAt: null, updatedAt: clock().toISOString() };
      if (!(await writeOver(existing, updated, { updatedAt: existing.updatedAt, status: 'scheduled' }, 'unschedule', options.actor ?? { kind: 'admin' }))) {
        const current = await mustFind(id);
        if (current.status !== 'scheduled') throw new ConflictError(SCHEDULE_MESSAGES.notScheduled);
        throw new PostConflictError(toPost(current));
      }
      return toPost(updated);
    },

    async publishDue() {
      const done: Post[] = [];
      const actor: PostActor = { kind: 'schedule' };
      for (;;) {
        const now = clock().toISOString();
        const due = await posts.dueScheduled(now, 50);
        let progressed = false;
        for (const existing of due) {
          const scheduledFor = existing.publishAt ?? now;
          const updated: StoredPost = { ...existing, status: 'published', publishedAt: scheduledFor, publishAt: null, updatedAt: now };
          // The slot is taken by the write itself: of the instances that read this post as due, one write matches.
          if (!(await writeOver(existing, updated, { updatedAt: existing.updatedAt, status: 'scheduled', publishAtBefore: now }, 'publish', actor, { scheduledFor }))) continue;
          progressed = true;
          done.push(toPost(updated));
        }
        if (due.length < 50 || !progressed) return done;
      }
    },

    async nextScheduledAt() {
      return posts.nextScheduledAt();
    },

    async revisions(id, input = {}) {
      if (!isRecordKey(id)) throw notFound();
      const parsed = postRevisionListQuerySchema.safeParse(input);
      if (!parsed.success) {
        const issues = fieldIssues(parsed.error);
        throw new InvalidInputError(describeIssues(issues), { details: issues });
      }
      const { page, limit } = parsed.data;
      const found = await posts.revisions(id, { limit, offset: (page - 1) * limit });
      if (found.total === 0) throw notFound();
      return { revisions: found.revisions.map(toRevisionSummary), total: found.total, page, limit };
    },

    async revision(id, revisionId) {
      if (!isRecordKey(id) || !isRecordKey(revisionId)) throw new NotFoundError(REVISION_NOT_FOUND);
      const found = await posts.revision(id, revisionId);
      if (!found) throw new NotFoundError(REVISION_NOT_FOUND);
      const post = revisionPostSchema.safeParse(found.snapshot);
      if (!post.success) throw new NotFoundError(REVISION_NOT_FOUND);
      return { ...toRevisionSummary(found), post: post.data };
    },

    async restoreRevision(id, revisionId, options) {
      const existing = await mustFind(id);
      if (existing.updatedAt !== options.expectedUpdatedAt) throw new PostConflictError(toPost(existing));
      const { post: old, number } = await service.revision(id, revisionId);
      // The sanitizer and the rules run again: what was stored then is checked as if it were sent now.
      const v = validateRevisionFields(old);
      const now = clock().toISOString();
      const categorySlug = slugify(v.category);
      // The status (and with it the schedule and publishing date) is the post's now: a published post stays published.
      const updated: StoredPost = { ...existing, ...writableFields(v, categorySlug, existing.status), updatedAt: now };
      await ensureCategory(v.category, categorySlug, now);
      if (!(await writeOver(existing, updated, { updatedAt: existing.updatedAt }, 'restore', options.actor ?? { kind: 'admin' }, { restoredFrom: number }))) {
        throw new PostConflictError(toPost(await mustFind(id)));
      }
      return toPost(updated);
    },

    async listDeleted() {
      const since = new Date(clock().getTime() - DELETED_POST_RETENTION_MS).toISOString();
      const deleted = await posts.deletedSince(since);
      return deleted.flatMap((r) => {
        const snapshot = revisionPostSchema.safeParse(r.snapshot);
        if (!snapshot.success) return [];
        return [
          {
            id: r.postId,
            title: snapshot.data.title,
            slug: snapshot.data.slug,
            status: snapshot.data.status,
            deletedAt: r.createdAt,
            purgeAt: new Date(Date.parse(r.createdAt) + DELETED_POST_RETENTION_MS).toISOString(),
          },
        ];
      });
    },

    async undelete(id, options = {}) {
      if (!isRecordKey(id)) throw new NotFoundError(DELETED_POST_NOT_FOUND);
      const last = await posts.latestRevision(id);
      const nowDate = clock();
      if (!last || last.action !== 'delete' || Date.parse(last.createdAt) < nowDate.getTime() - DELETED_POST_RETENTION_MS || (await posts.findById(id))) {
        throw new NotFoundError(DELETED_POST_NOT_FOUND);
      }
      const old = revisionPostSchema.safeParse(last.snapshot);
      if (!old.success) throw new NotFoundError(DELETED_POST_NOT_FOUND);
      const v = validateRevisionFields(old.data);
      const now = nowDate.toISOString();
      const categorySlug = slugify(v.category);
      await ensureCategory(v.category, categorySlug, now);
      // Back as a draft: the owner decides whether it goes public again. Its address is kept when still free.
      const post = await insertWithFreeSlug(
        (slug) => ({
          id,
          slug,
          ...writableFields(v, categorySlug, 'draft'),
          views: 0,
          source: 'local',
          publishedAt: old.data.publishedAt,
          publishAt: null,
          createdAt: now,
          updatedAt: now,
        }),
        slugify(v.title),
        'undelete',
        options.actor ?? { kind: 'admin' },
        old.data.slug,
      );
      return toPost(post);
    },

    async purgeDeleted() {
      return posts.purgeDeleted(new Date(clock().getTime() - DELETED_POST_RETENTION_MS).toISOString());
    },
  };
  return service;

  /** One compare-and-set attempt; undefined when the post changed between the read and the write. */
  async function updateVersion(id: string, v: ReturnType<typeof validatePost>, expectedUpdatedAt: string | undefined, actor: PostActor) {
    const existing = await mustFind(id);
    if (expectedUpdatedAt !== undefined && existing.updatedAt !== expectedUpdatedAt) throw new PostConflictError(toPost(existing));
    const nowDate = clock();
    const now = nowDate.toISOString();
    const categorySlug = slugify(v.category);
    const status = v.status ?? existing.status;
    if (v.publishAt !== undefined && status !== 'scheduled') {
      throw new PostValidationError([SCHEDULE_MESSAGES.onlyScheduled], [{ path: 'publishAt', message: SCHEDULE_MESSAGES.onlyScheduled }]);
    }
    // A scheduled post keeps its time unless a new one is sent; one becoming scheduled needs a time.
    const publishAt =
      status !== 'scheduled' ? null : v.publishAt !== undefined || existing.status !== 'scheduled' ? checkedPublishAt(v.publishAt, nowDate) : existing.publishAt;
    const updated: StoredPost = {
      ...existing,
      ...writableFields(v, categorySlug, status),
      publishedAt: status === 'published' ? (existing.publishedAt ?? now) : existing.publishedAt,
      publishAt,
      updatedAt: now,
    };
    await ensureCategory(v.category, categorySlug, now);
    const action: RevisionAction =
      status === existing.status ? 'update' : status === 'published' ? 'publish' : status === 'scheduled' ? 'schedule' : 'update';
    if (!(await writeOver(existing, updated, { updatedAt: existing.updatedAt }, action, actor))) return undefined;
    return toPost(updated);
  }
}
