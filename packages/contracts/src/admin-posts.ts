import { z } from 'zod';
import { safeChars } from './text';
import { POST_MAX_RULES, POST_MIN_RULES, POST_STATUSES, postInputSchema, postSchema, postSummarySchema, type Post } from './posts';
import { PLACEHOLDER_IMAGE } from './posts-rules';

/** The admin API's posts (`/api/admin/posts/*`): the list, edits, scheduling, revisions and deleted posts. */

// ------------------------------------------------------------------------------------------------ posts

/** `GET /api/admin/posts` query: every status unless `status` is given; `q` searches title, excerpt, category (full-text: every word, the last one as a prefix; best match first among the newest 1,000 matches; `total` counts the matches up to 1,000, `totalIsLowerBound` says when more match). */
export const adminPostListQuerySchema = z.object({
  q: z.string().trim().max(200).apply(safeChars()).optional(),
  status: z.enum(POST_STATUSES).optional(),
  /**
   * The opaque `nextCursor` (older posts) or `prevCursor` (newer ones) of the page on screen, with the same `status`;
   * none for the newest page. With `q` the answer is one ranked page (the best `limit` matches) and takes no cursor.
   */
  cursor: z.string().trim().max(500).apply(safeChars()).optional(),
  limit: z.coerce.number({ error: 'limit must be a number' }).int().min(1).max(100).default(50),
});
export type AdminPostListQueryInput = z.input<typeof adminPostListQuerySchema>;
export type AdminPostListQuery = z.output<typeof adminPostListQuerySchema>;

/** A list entry: summary fields (status, category, dates, views…), newest change first. */
export const adminPostListSchema = z.object({
  posts: z.array(postSummarySchema),
  /**
   * Posts matching the filter: all pages, not just this one. With `q`, the matches counted up to 1,000 (a search reads
   * no further than the matches it ranks): see `totalIsLowerBound`.
   */
  total: z.number().int().min(0),
  /** With `q` only: true when more posts match than `total` (it stopped counting at 1,000): show "1,000+". */
  totalIsLowerBound: z.boolean().optional(),
  limit: z.number().int().min(1),
  /** Pass back as `cursor` for the older posts; null on the last page (and with `q`). */
  nextCursor: z.string().nullable(),
  /** Pass back as `cursor` for the newer posts; null on the newest page (and with `q`). */
  prevCursor: z.string().nullable(),
  /** Posts per status over all posts (ignores the filter), for the filter's labels. */
  counts: z.object({ draft: z.number().int(), scheduled: z.number().int(), published: z.number().int(), archived: z.number().int() }),
});
export type AdminPostList = z.infer<typeof adminPostListSchema>;

/**
 * `POST /api/admin/posts` body: the shared post input; stored as a draft. Answers 201 with `postSchema`.
 * `GET /api/admin/posts/:id` answers `postSchema`; unknown id -> 404 'Post not found'.
 * Validation failures: 400 `validation_failed`, message 'Validation failed: …' and `details` the list of
 * messages (see `postFieldErrors` to place them next to the fields).
 */
export const adminPostCreateSchema = postInputSchema.omit({ status: true, publishAt: true });
export type AdminPostCreate = z.infer<typeof adminPostCreateSchema>;

/**
 * `PUT /api/admin/posts/:id` body: the post fields plus `expectedUpdatedAt`, the `updatedAt` the form loaded.
 * When the stored post changed since (webhook, another tab), the API answers 409 `conflict` with
 * `ADMIN_MESSAGES.postConflict` and `details: { current: Post }` and stores nothing. Answers `postSchema`.
 * The status is kept (publish with the publish route).
 */
export const adminPostUpdateSchema = adminPostCreateSchema.extend({
  expectedUpdatedAt: z.string({ error: 'expectedUpdatedAt is required' }).min(1, { error: 'expectedUpdatedAt is required' }),
});
export type AdminPostUpdate = z.infer<typeof adminPostUpdateSchema>;

export const adminPostConflictDetailsSchema = z.object({ current: postSchema });

/**
 * `POST /api/admin/posts/preview` `{ content }` -> `{ content }`: the article HTML exactly as it would be stored (the
 * server's sanitizer), so the form's Preview shows what /blog/{slug} will. Nothing is stored.
 */
export const adminPostPreviewRequestSchema = postInputSchema.pick({ content: true });
export const adminPostPreviewSchema = z.object({ content: z.string() });
export type AdminPostPreview = z.infer<typeof adminPostPreviewSchema>;
export type AdminPostConflictDetails = z.infer<typeof adminPostConflictDetailsSchema>;

// `POST /api/admin/posts/:id/publish`: drafts and scheduled posts only (409 `conflict` PUBLISH_ONLY_DRAFTS otherwise);
// sets published, updatedAt, publishedAt if missing. Answers `postSchema`.
// `DELETE /api/admin/posts/:id`: 204; unknown id -> 404 'Post not found'.
export const PUBLISH_ONLY_DRAFTS = 'Only drafts and scheduled posts can be published';

// ----------------------------------------------------------------------------------- scheduled publishing

/**
 * `POST /api/admin/posts/:id/schedule` `{ publishAt, expectedUpdatedAt? }`: a draft (or a scheduled post, to move
 * its time) becomes `scheduled`; the server publishes it at `publishAt` (ISO 8601 with offset, in the future, at most
 * a year ahead: 400 `validation_failed` with SCHEDULE_MESSAGES otherwise; 409 for a published or archived post).
 * `POST /api/admin/posts/:id/unschedule`: back to draft (409 'This post is not scheduled' otherwise).
 * `POST /api/admin/posts/:id/publish` also publishes a scheduled post now ('Publish now'). All answer `postSchema`.
 */
export const adminPostScheduleSchema = z.object({
  publishAt: z.string({ error: 'publishAt is required' }).trim().min(1, { error: 'publishAt is required' }).max(60),
  expectedUpdatedAt: z.string().min(1).max(60).optional(),
});
export type AdminPostSchedule = z.infer<typeof adminPostScheduleSchema>;

// ---------------------------------------------------------------------------------------- revisions

/** What made a revision. */
export const REVISION_ACTIONS = ['create', 'update', 'publish', 'schedule', 'unschedule', 'restore', 'delete', 'undelete', 'import'] as const;
export type RevisionAction = (typeof REVISION_ACTIONS)[number];
/** Who: the admin, the webhook (with its source), the scheduler publishing a scheduled post, or the system (migration). */
export const REVISION_AUTHOR_KINDS = ['admin', 'webhook', 'schedule', 'system'] as const;

/** The post's fields a revision keeps (everything but views, which are readers' and never restored). */
export const revisionPostSchema = z.object({
  title: z.string(),
  slug: z.string(),
  excerpt: z.string(),
  content: z.string(),
  keywords: z.array(z.string()),
  author: z.string(),
  category: z.string(),
  categorySlug: z.string(),
  status: z.enum(POST_STATUSES),
  featuredImage: z.string().nullable(),
  ogImage: z.string().nullable(),
  metaDescription: z.string(),
  publishedAt: z.string().nullable(),
  publishAt: z.string().nullable(),
});
export type RevisionPost = z.infer<typeof revisionPostSchema>;

export const postRevisionSummarySchema = z.object({
  id: z.string(),
  postId: z.string(),
  /** 1 for the first revision of the post, then 2, 3… */
  number: z.number().int().min(1),
  createdAt: z.string(),
  action: z.enum(REVISION_ACTIONS),
  author: z.object({ kind: z.enum(REVISION_AUTHOR_KINDS), label: z.string() }),
  /** Field names (of revisionPostSchema) that differ from the revision before; every field for the first. */
  changedFields: z.array(z.string()),
  /** For a restore: the revision whose version was restored. */
  restoredFrom: z.number().int().nullable(),
  title: z.string(),
  status: z.enum(POST_STATUSES),
});
export type PostRevisionSummary = z.infer<typeof postRevisionSummarySchema>;

/** `GET /api/admin/posts/:id/revisions/:revisionId`: one revision with the post as it was then. */
export const postRevisionSchema = postRevisionSummarySchema.extend({ post: revisionPostSchema });
export type PostRevision = z.infer<typeof postRevisionSchema>;

/** `GET /api/admin/posts/:id/revisions?page&limit`: newest first; also for a deleted post (30 days). */
export const postRevisionListQuerySchema = z.object({
  page: z.coerce.number({ error: 'page must be a number' }).int().min(1).default(1),
  limit: z.coerce.number({ error: 'limit must be a number' }).int().min(1).max(100).default(20),
});
export const postRevisionListSchema = z.object({
  revisions: z.array(postRevisionSummarySchema),
  total: z.number().int().min(0),
  page: z.number().int().min(1),
  limit: z.number().int().min(1),
});
export type PostRevisionList = z.infer<typeof postRevisionListSchema>;

/**
 * `POST /api/admin/posts/:id/revisions/:revisionId/restore` `{ expectedUpdatedAt }`: the post's fields become the
 * revision's (sanitized again) as a new revision; the status and slug stay (a published post stays published). 409
 * `conflict` with `details.current` when the post changed since `expectedUpdatedAt`; 409 `revision_is_current`
 * (REVISION_IS_CURRENT) when the post already has every field the restore writes (`isCurrentVersion`): nothing is
 * stored, no revision recorded. Answers `postSchema`.
 */
export const postRevisionRestoreSchema = z.object({
  expectedUpdatedAt: z.string({ error: 'expectedUpdatedAt is required' }).min(1, { error: 'expectedUpdatedAt is required' }).max(60),
});

/** The restore's 409 for a revision that is the post's current version (a restore would change nothing). */
export const REVISION_IS_CURRENT = { code: 'revision_is_current', message: 'This revision is already the current version.' } as const;

/**
 * The fields a restore writes (read time follows the content; status, slug, schedule and publishing date stay the
 * post's): the same list the API's check compares (api/src/posts/posts-write-repository.ts, `sameRestoredFields`).
 */
export const RESTORED_FIELDS = ['title', 'excerpt', 'content', 'keywords', 'author', 'category', 'categorySlug', 'featuredImage', 'ogImage', 'metaDescription'] as const;
type RestoredField = (typeof RESTORED_FIELDS)[number];
type Restorable = Pick<RevisionPost, RestoredField> | Pick<Post, RestoredField>;

/** The images as readers get them: no featured image is the placeholder, no OG image the featured image (as the API's `Post`). */
function shownImages(v: Restorable): { featuredImage: string; ogImage: string } {
  const featuredImage = v.featuredImage || PLACEHOLDER_IMAGE;
  return { featuredImage, ogImage: v.ogImage || featuredImage };
}

/**
 * Whether a revision is the post's current version: every field a restore writes is equal (images as readers get them,
 * so a revision without an image and the post showing the placeholder agree). The admin offers no Restore for it, and
 * the API refuses it with 409 `revision_is_current`.
 */
export function isCurrentVersion(then: Pick<RevisionPost, RestoredField>, now: Pick<Post, RestoredField>): boolean {
  const a = shownImages(then);
  const b = shownImages(now);
  if (a.featuredImage !== b.featuredImage || a.ogImage !== b.ogImage) return false;
  return RESTORED_FIELDS.every((field) => field === 'featuredImage' || field === 'ogImage' || JSON.stringify(then[field]) === JSON.stringify(now[field]));
}

/** Revisions of a deleted post are kept this long; until then the post can be restored. */
export const DELETED_POST_RETENTION_MS = 30 * 24 * 60 * 60 * 1000;

/** `GET /api/admin/posts/deleted`: posts deleted in the last 30 days, most recent first. */
export const deletedPostSchema = z.object({
  id: z.string(),
  title: z.string(),
  slug: z.string(),
  status: z.enum(POST_STATUSES),
  deletedAt: z.string(),
  /** When its history is dropped for good. */
  purgeAt: z.string(),
});
export type DeletedPost = z.infer<typeof deletedPostSchema>;
export const deletedPostListSchema = z.object({ posts: z.array(deletedPostSchema) });
/**
 * `POST /api/admin/posts/:id/undelete`: the deleted post comes back as a draft with its last content (a new revision;
 * a new slug if its old one was taken meanwhile). 404 when it was not deleted in the last 30 days. Answers `postSchema`.
 */
export const RESTORED_AS_DRAFT = 'Restored as a draft';

export type PostFormField = (typeof POST_MIN_RULES)[number]['field'] | 'keywords' | 'featuredImage' | 'ogImage';

/**
 * The admin form's message when its category list is left at 'Choose a category': nothing was typed, so the
 * spec's length rule ('Category must be at least 2 characters long') would speak of a text field that is not there.
 * A category typed under 'Other' keeps the spec's message, as the webhook does.
 */
export const CHOOSE_CATEGORY_MESSAGE = 'Choose a category';

/**
 * Places the messages of a 400 'Validation failed: …' (its `details`) next to the form's fields. Messages that
 * name no field (e.g. 'The body must be a JSON object') are under `form`.
 */
export function postFieldErrors(messages: readonly string[]): Partial<Record<PostFormField | 'form', string>> {
  const out: Partial<Record<PostFormField | 'form', string>> = {};
  const put = (key: PostFormField | 'form', message: string) => {
    if (!(key in out)) out[key] = message;
  };
  for (const message of messages) {
    const rule = [...POST_MIN_RULES, ...POST_MAX_RULES].find((r) => r.message === message);
    if (rule) {
      put(rule.field, message);
      continue;
    }
    if (message === CHOOSE_CATEGORY_MESSAGE) {
      put('category', message);
      continue;
    }
    const prefixed = /^([a-z]+)(?:\.\d+)?: (.*)$/i.exec(message);
    const field = prefixed?.[1];
    if (field && ['title', 'excerpt', 'content', 'author', 'category', 'metaDescription', 'keywords', 'featuredImage', 'ogImage'].includes(field)) {
      put(field as PostFormField, prefixed[2]!);
    } else put('form', message);
  }
  return out;
}
