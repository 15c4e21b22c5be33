import { randomUUID } from 'node:crypto';
import {
  normalizePostInput,
  PLACEHOLDER_IMAGE,
  POST_MIN_RULES,
  postInputSchema,
  postValidationMessages,
  readTime,
  slugify,
  uniqueSlug,
  validationFailedMessage,
  type Category,
  type Post,
  type PostInput,
  type PostListQuery,
  type PostSource,
  type PostSummary,
} from '@site/contracts/posts';
import type { PostsRepository, StoredPost } from '../db/repositories/posts-repository';
import { ApiError } from '../lib/api-error';
import type { Clock } from '../lib/clock';
import { Mutex } from '../lib/mutex';
import { sanitizePostHtml } from './sanitize-post-html';

export const POST_NOT_FOUND = 'Post not found';

export interface PostService {
  /** Published posts, newest first, optionally filtered by search text and category slug. */
  listPublished(query?: PostListQuery): Promise<PostSummary[]>;
  /** A published post by slug; 404 'Post not found' otherwise. */
  getPublished(slug: string): Promise<Post>;
  /** Adds one view to a published post and answers the new count. */
  addView(slug: string): Promise<number>;
  listCategories(): Promise<Category[]>;
  /** Every post, drafts included (admin). */
  listAll(): Promise<PostSummary[]>;
  getById(id: string): Promise<Post>;
  /** Validates, sanitizes and stores a new post. Drafts unless `allowStatus` (imports) and the input carries one. */
  create(input: unknown, options?: { source?: PostSource; allowStatus?: boolean }): Promise<Post>;
  update(id: string, input: unknown): Promise<Post>;
  delete(id: string): Promise<void>;
  /** Sets published, updates updatedAt, fills publishedAt when missing. */
  publish(id: string): Promise<Post>;
}

export class PostValidationError extends ApiError {
  constructor(readonly messages: string[]) {
    super(400, 'validation_failed', validationFailedMessage(messages), { details: messages });
    this.name = 'PostValidationError';
  }
}

const notFound = () => new ApiError(404, 'not_found', POST_NOT_FOUND);

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

export function toSummary(p: StoredPost): PostSummary {
  const { content: _content, ...summary } = toPost(p);
  return summary;
}

/** Parses the shape with the contract, trims, then applies the spec's length rules and sanitizes the HTML. */
export function validatePost(input: unknown) {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) {
    throw new PostValidationError(['The body must be a JSON object']);
  }
  // A missing required field is reported with the spec's own "at least N characters" message.
  const filled: Record<string, unknown> = { ...input };
  for (const rule of POST_MIN_RULES) if (filled[rule.field] === undefined || filled[rule.field] === null) filled[rule.field] = '';
  const shape = postInputSchema.safeParse(filled);
  if (!shape.success) {
    throw new PostValidationError(shape.error.issues.map((i) => `${i.path.map(String).join('.') || 'body'}: ${i.message}`));
  }
  const normalized = normalizePostInput(shape.data as PostInput);
  const content = sanitizePostHtml(normalized.content);
  // Length rules on the text the visitor will get: a payload that sanitizes to nothing is too short.
  const messages = postValidationMessages({ ...normalized, content });
  if (messages.length > 0) throw new PostValidationError(messages);
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
  // Slug choice and insert happen under one lock, so two posts with one title never race to one slug.
  const writeLock = new Mutex();

  async function ensureCategory(name: string, categorySlug: string, now: string) {
    await posts.ensureCategory({ id: newId(), name, slug: categorySlug, description: `Articles about ${name}.`, createdAt: now });
  }

  async function mustFind(id: string) {
    const post = await posts.findById(id);
    if (!post) throw notFound();
    return post;
  }

  return {
    async listPublished(query = {}) {
      const rows = await posts.list({ status: 'published', q: query.q, categorySlug: query.category || undefined });
      return rows.map(toSummary);
    },

    async getPublished(slug) {
      const post = await posts.findBySlug(slug);
      if (!post || post.status !== 'published') throw notFound();
      return toPost(post);
    },

    async addView(slug) {
      const views = await posts.incrementViews(slug);
      if (views === undefined) throw notFound();
      return views;
    },

    async listCategories() {
      return posts.listCategories();
    },

    async listAll() {
      return (await posts.list()).map(toSummary);
    },

    async getById(id) {
      return toPost(await mustFind(id));
    },

    async create(input, options = {}) {
      const v = validatePost(input);
      const now = clock().toISOString();
      const status = options.allowStatus && v.status ? v.status : 'draft';
      const categorySlug = slugify(v.category);
      const release = await writeLock.lock();
      try {
        const base = slugify(v.title);
        const slug = uniqueSlug(base, await posts.slugsLike(base));
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
        await ensureCategory(v.category, categorySlug, now);
        await posts.insert(post);
        return toPost(post);
      } finally {
        release();
      }
    },

    async update(id, input) {
      const v = validatePost(input);
      const existing = await mustFind(id);
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
      await posts.update(updated);
      return toPost(updated);
    },

    async delete(id) {
      if (!(await posts.delete(id))) throw notFound();
    },

    async publish(id) {
      const existing = await mustFind(id);
      const now = clock().toISOString();
      const updated: StoredPost = { ...existing, status: 'published', updatedAt: now, publishedAt: existing.publishedAt ?? now };
      await posts.update(updated);
      return toPost(updated);
    },
  };
}
