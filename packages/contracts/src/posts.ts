import { z } from 'zod';
import { IMAGE_URL_MESSAGE, IMAGE_URL_PATTERN, isImageUrl, MAX_KEYWORD_LENGTH, POST_MIN_RULES, MAX_KEYWORDS, POST_SOURCES, POST_STATUSES, POSTS_PAGE_DEFAULT_LIMIT, POSTS_PAGE_MAX_LIMIT } from './posts-rules';
import { safeChars, type TextOptions } from './text';

/**
 * Blog posts and categories: the shapes the API answers with and the input it accepts (admin form and webhook).
 * The spec's validation messages and the small pure rules (slug, read time, excerpt) are in ./posts-rules, which has
 * no zod, and are re-exported here.
 */
export * from './posts-rules';

const text = z.string({ error: 'must be text' });
/** One-line fields (title, author, category, keywords): no control or text-direction characters. */
const LINE: TextOptions = {};
/** Plain text that may span lines (excerpt, meta description): tab and line breaks allowed. */
const LINES: TextOptions = { multiline: true };
/** HTML: line breaks and tabs allowed, and bidi controls (a right-to-left writer's business; the HTML is sanitized). */
const HTML: TextOptions = { multiline: true, bidi: true };
/** The character rule of each text field of a post (the API description pairs it with the field's length rules). */
export const POST_TEXT_RULES = { title: LINE, excerpt: LINES, content: HTML, author: LINE, category: LINE, metaDescription: LINES } as const satisfies Record<
  (typeof POST_MIN_RULES)[number]['field'],
  TextOptions
>;
const line = text.apply(safeChars(LINE));
const lines = text.apply(safeChars(LINES));
const html = text.apply(safeChars(HTML));

const imageUrl = z.string({ error: 'must be text' }).trim().max(2000).refine(isImageUrl, { message: IMAGE_URL_MESSAGE }).meta({ pattern: IMAGE_URL_PATTERN });

/** The fields a writer sends (admin form and webhook). Shape only: the length rules are in validatePostInput. */
export const postInputSchema = z.object({
  title: line,
  excerpt: lines,
  content: html,
  author: line,
  category: line,
  metaDescription: lines,
  keywords: z
    .array(z.string({ error: 'must be text' }).max(MAX_KEYWORD_LENGTH, { error: `must be at most ${MAX_KEYWORD_LENGTH} characters` }).apply(safeChars()), {
      error: 'must be a list of text values, e.g. ["salon", "automation"]',
    })
    .max(MAX_KEYWORDS, { error: `must hold at most ${MAX_KEYWORDS} keywords` })
    .optional(),
  featuredImage: imageUrl.optional(),
  ogImage: imageUrl.optional(),
  status: z.enum(['draft', 'published', 'scheduled'], { error: 'must be "draft", "published" or "scheduled"' }).optional(),
  /** With status "scheduled": when to publish (ISO 8601 with offset, in the future, at most a year ahead). */
  publishAt: z.string({ error: 'must be text' }).max(60, { error: 'must be at most 60 characters' }).optional(),
});
export type PostInput = z.infer<typeof postInputSchema>;

/** Webhook body (spec section 7): the same fields, status optional (draft, published, or scheduled with publishAt). */
export const webhookPostSchema = postInputSchema.extend({
  /**
   * true: the server fetches featuredImage and ogImage (http(s) URLs) once, through the same SSRF-safe fetcher as the
   * analysis, and stores them in the media library; the post then points at the stored copies.
   */
  storeImages: z.boolean({ error: 'must be true or false' }).optional(),
});
export type WebhookPostInput = z.infer<typeof webhookPostSchema>;
/**
 * The webhook's answer. `adminUrl` is the post's edit page in the admin panel, always; `url` its public page, only
 * when the post is published (a draft's public address answers 404 until someone publishes it); `publishAt` when it
 * is scheduled.
 */
export const webhookResultSchema = z.object({
  id: z.string(),
  slug: z.string(),
  status: z.enum(POST_STATUSES),
  url: z.string().optional(),
  adminUrl: z.string(),
  /** A scheduled post's publishing time (ISO, UTC); its `url` works from then on. */
  publishAt: z.string().optional(),
});
export type WebhookResult = z.infer<typeof webhookResultSchema>;

export const postSchema = z.object({
  id: z.string(),
  title: z.string(),
  slug: z.string(),
  excerpt: z.string(),
  content: z.string(),
  keywords: z.array(z.string()),
  author: z.string(),
  publishedAt: z.string().nullable(),
  /** A scheduled post's publishing time (ISO, UTC); null otherwise. */
  publishAt: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
  status: z.enum(POST_STATUSES),
  featuredImage: z.string(),
  /**
   * The featured image's alt text, as the owner wrote it on the Media screen: present on the public blog's posts
   * whose featured image is from the media library and has one (the image's alt on the post page and in cards).
   */
  featuredImageAlt: z.string().optional(),
  category: z.string(),
  categorySlug: z.string(),
  readTime: z.number().int().min(1),
  views: z.number().int().min(0),
  metaDescription: z.string(),
  ogImage: z.string(),
  source: z.enum(POST_SOURCES),
});
export type Post = z.infer<typeof postSchema>;

/** A list entry: everything but the full content. */
export const postSummarySchema = postSchema.omit({ content: true });
export type PostSummary = z.infer<typeof postSummarySchema>;

/**
 * One page of `GET /api/posts`: published posts, newest first. `total` counts every post matching the filter
 * (not just this page), except that with `q` it counts the matches up to 1,000 and `totalIsLowerBound` says when more
 * match; `nextCursor` is passed back as `cursor` for the next page, null on the last page.
 */
export const postListSchema = z.object({
  posts: z.array(postSummarySchema),
  total: z.number().int().min(0),
  /** With `q` only: true when more posts match than `total` (the count stopped at 1,000): show "1000+". */
  totalIsLowerBound: z.boolean().optional(),
  nextCursor: z.string().nullable(),
});
export type PostList = z.infer<typeof postListSchema>;

/**
 * Query of `GET /api/posts` (all optional): `q` searches title, excerpt and category (every word, the last one as a prefix, case-insensitive: the full-text index);
 * `category` is a category name or slug (`AI Automation` or `ai-automation`); `limit` 1..50 (default 12);
 * `cursor` is the opaque `nextCursor` of the previous page (send the same `q` and `category` with it).
 */
export const postListQuerySchema = z.object({
  q: z.string().trim().max(200).apply(safeChars()).optional(),
  category: z.string().trim().max(80).apply(safeChars()).optional(),
  limit: z.coerce
    .number({ error: 'limit must be a number' })
    .int({ error: 'limit must be a whole number' })
    .min(1, { error: 'limit must be at least 1' })
    .max(POSTS_PAGE_MAX_LIMIT, { error: `limit must be at most ${POSTS_PAGE_MAX_LIMIT}` })
    .default(POSTS_PAGE_DEFAULT_LIMIT),
  cursor: z.string().trim().max(500).apply(safeChars()).optional(),
});
/** The query as a caller writes it (every field optional). */
export type PostListQueryInput = z.input<typeof postListQuerySchema>;
/** The query after parsing (limit filled in). */
export type PostListQuery = z.output<typeof postListQuerySchema>;

export const categorySchema = z.object({
  id: z.string(),
  name: z.string(),
  slug: z.string(),
  description: z.string(),
  postCount: z.number().int().min(0),
});
export type Category = z.infer<typeof categorySchema>;
export const categoryListSchema = z.object({ categories: z.array(categorySchema) });

export const viewsResultSchema = z.object({ views: z.number().int().min(0) });
