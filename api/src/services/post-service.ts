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
  PUBLISH_ONLY_DRAFTS,
  adminPostListQuerySchema,
  adminPostPreviewRequestSchema,
  type AdminPostList,
  type AdminPostListQueryInput,
} from '@site/contracts/admin';
import { describeIssues, fieldIssues, type FieldIssue } from '@site/contracts/error';
import { isRecordKey } from '@site/contracts/text';
import type { PostFilter, PostPosition, PostsRepository, StoredPost, StoredPostSummary } from '../db/repositories/posts-repository';
import { ConflictError, DomainError, InvalidInputError, NotFoundError } from '../lib/domain-errors';
import type { Clock } from '../lib/clock';
import { sanitizePostHtml } from './sanitize-post-html';

export const POST_NOT_FOUND = 'Post not found';

export interface PostService {
  /** Every published post, newest first, optionally filtered by search text and category (name or slug). For feeds. */
  listPublished(filter?: { q?: string; category?: string }): Promise<PostSummary[]>;
  /** One page of published posts (`GET /api/posts`): the query is validated here; a bad cursor is invalid input. */
  pagePublished(query?: PostListQueryInput): Promise<PostList>;
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
  /** Validates, sanitizes and stores a new post. Drafts unless `allowStatus` (imports) and the input carries one. */
  create(input: unknown, options?: { source?: PostSource; allowStatus?: boolean }): Promise<Post>;
  /**
   * Validates and stores new content. With `expectedUpdatedAt` (the admin form sends the `updatedAt` it loaded) a post
   * changed meanwhile (webhook, another tab) is refused with PostConflictError and nothing is stored.
   */
  update(id: string, input: unknown, options?: { expectedUpdatedAt?: string }): Promise<Post>;
  delete(id: string): Promise<void>;
  /** Drafts only (conflict otherwise): sets published, updates updatedAt, fills publishedAt when missing. */
  publish(id: string): Promise<Post>;
  /** Article HTML as `create`/`update` would store it (the admin form's Preview). Nothing is stored. */
  previewContent(input: unknown): { content: string };
}


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

/** Published posts matching the search text and a category given by name or slug (both slugify alike). */
function publishedFilter(filter: { q?: string; category?: string }): PostFilter {
  const category = filter.category?.trim();
  return { status: 'published', q: filter.q, categorySlug: category ? slugify(category) : undefined };
}

/** A stored post as the API shows it: image fallbacks resolved (ogImage -> featuredImage -> placeholder). */
export function toPost(p: StoredPost): Post {
  return {
    id: p.id,
    title: p.title,
    slug: p.slug,
    excerpt: p.excerpt,
    content: p.content,
    keywords: p.keywords,
    author: p.author,
    publishedAt: p.publishedAt,
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

/** A post as lists show it: the API's post without its content (lists read none from the database). */
export function toSummary(p: StoredPostSummary): PostSummary {
  const { content: _content, ...summary } = toPost({ ...p, content: '' });
  return summary;
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

export function createPostService(deps: { posts: PostsRepository; clock: Clock; newId?: () => string }): PostService {
  const { posts, clock } = deps;
  const newId = deps.newId ?? randomUUID;

  async function ensureCategory(name: string, categorySlug: string, now: string) {
    await posts.ensureCategory({ id: newId(), name, slug: categorySlug, description: `Articles about ${name}.`, createdAt: now });
  }

  async function mustFind(id: string) {
    if (!isRecordKey(id)) throw notFound();
    const post = await posts.findById(id);
    if (!post) throw notFound();
    return post;
  }

  return {
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
      return { posts: page.posts.map(toSummary), total: page.total, nextCursor: page.next ? encodeCursor(page.next) : null };
    },

    async getPublished(slug) {
      if (!isPostSlug(slug)) throw notFound();
      const post = await posts.findBySlug(slug);
      if (!post || post.status !== 'published') throw notFound();
      return toPost(post);
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

    async listAll(filter = {}) {
      return (await posts.list({ q: filter.q, status: filter.status })).map(toSummary);
    },

    async pageAll(input = {}) {
      const parsed = adminPostListQuerySchema.safeParse(input);
      if (!parsed.success) {
        const issues = fieldIssues(parsed.error);
        throw new InvalidInputError(describeIssues(issues), { details: issues });
      }
      const { q, status, page, limit } = parsed.data;
      const [matching, counts] = await Promise.all([
        posts.pageAt({ q, status }, { limit, offset: (page - 1) * limit }),
        posts.countByStatus(),
      ]);
      return { posts: matching.posts.map(toSummary), total: matching.total, page, limit, counts };
    },

    async getById(id) {
      return toPost(await mustFind(id));
    },

    async create(input, options = {}) {
      const v = validatePost(input);
      const now = clock().toISOString();
      const status = options.allowStatus && v.status ? v.status : 'draft';
      const categorySlug = slugify(v.category);
      await ensureCategory(v.category, categorySlug, now);
      const base = slugify(v.title);
      // The database's unique index on the slug decides: two posts with one title written at once (by this process or
      // another instance) get two slugs, the loser of each race picking the next free one. The title's own slug is
      // tried first: a new title costs one indexed insert, and only a taken one reads the slugs like it (a scan).
      for (let attempt = 0; ; attempt++) {
        const slug =
          attempt === 0 ? base : attempt <= SLUG_ATTEMPTS ? uniqueSlug(base, await posts.slugsLike(base)) : `${base}-${randomUUID().slice(0, 8)}`;
        const post: StoredPost = {
          id: newId(),
          slug,
          ...writableFields(v, categorySlug, status),
          views: 0,
          source: options.source ?? 'local',
          publishedAt: status === 'published' ? now : null,
          createdAt: now,
          updatedAt: now,
        };
        if (await posts.insert(post)) return toPost(post);
        if (attempt > SLUG_ATTEMPTS + 1) throw new ConflictError('The post could not get a free address. Please try again.');
      }
    },

    async update(id, input, options = {}) {
      const v = validatePost(input);
      // The write only lands on the version that was read (compare-and-set on updatedAt): a change made meanwhile by
      // another request or instance is a conflict for the form, and a plain retry for a caller without a version.
      for (let attempt = 0; attempt < 3; attempt++) {
        const written = await updateVersion(id, v, options.expectedUpdatedAt);
        if (written) return written;
      }
      throw new PostConflictError(toPost(await mustFind(id)));
    },

    async delete(id) {
      if (!isRecordKey(id) || !(await posts.delete(id))) throw notFound();
    },

    previewContent(input) {
      const parsed = adminPostPreviewRequestSchema.safeParse(input);
      if (!parsed.success) {
        const issues = fieldIssues(parsed.error);
        throw new PostValidationError(issues.map((i) => `${i.path}: ${i.message}`), issues);
      }
      return { content: sanitizePostHtml(parsed.data.content.trim()) };
    },

    async publish(id) {
      const existing = await mustFind(id);
      if (existing.status !== 'draft') throw new ConflictError(PUBLISH_ONLY_DRAFTS);
      const now = clock().toISOString();
      const updated: StoredPost = { ...existing, status: 'published', updatedAt: now, publishedAt: existing.publishedAt ?? now };
      // Still a draft, and the version we read: of two publishes at once (two tabs, two instances) one wins, one is told.
      if (!(await posts.update(updated, { updatedAt: existing.updatedAt, status: 'draft' }))) {
        const current = await mustFind(id);
        if (current.status !== 'draft') throw new ConflictError(PUBLISH_ONLY_DRAFTS);
        throw new PostConflictError(toPost(current));
      }
      return toPost(updated);
    },
  };

  /** One compare-and-set attempt; undefined when the post changed between the read and the write. */
  async function updateVersion(id: string, v: ReturnType<typeof validatePost>, expectedUpdatedAt: string | undefined) {
    const existing = await mustFind(id);
    if (expectedUpdatedAt !== undefined && existing.updatedAt !== expectedUpdatedAt) throw new PostConflictError(toPost(existing));
    const now = clock().toISOString();
    const categorySlug = slugify(v.category);
    const status = v.status ?? existing.status;
    const updated: StoredPost = {
      ...existing,
      ...writableFields(v, categorySlug, status),
      publishedAt: status === 'published' ? (existing.publishedAt ?? now) : existing.publishedAt,
      updatedAt: now,
    };
    await ensureCategory(v.category, categorySlug, now);
    if (!(await posts.update(updated, { updatedAt: existing.updatedAt }))) return undefined;
    return toPost(updated);
  }
}
