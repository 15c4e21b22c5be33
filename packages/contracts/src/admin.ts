import { z } from 'zod';
import { safeChars } from './text';
import { POST_MAX_RULES, POST_MIN_RULES, POST_STATUSES, postInputSchema, postSchema, postSummarySchema } from './posts';

/**
 * The admin API (`/api/admin/*`): every request body, query and answer, shared by the API (which validates
 * with these) and the admin remote (which parses answers and validates its forms with the same schemas).
 *
 * Every route but `POST /api/admin/login` and `GET /api/admin/session` needs the session cookie and answers
 * 401 `{ error: { code: 'unauthorized', … } }` without it. Every state-changing route (POST/PUT/PATCH/DELETE)
 * also needs a same-site `Origin` (or `Referer`) and answers 403 `forbidden` otherwise (CSRF).
 * Errors use the envelope of `./error` (`{ error: { code, message, details? } }`).
 */

// ---------------------------------------------------------------------------------------------- session

/** Spec section 9: session lifetime and inactivity timeout, 24 hours. */
export const ADMIN_SESSION_MAX_AGE_MS = 86_400_000;
export const ADMIN_SESSION_IDLE_MS = 86_400_000;
/** Name of the session cookie over plain http (HttpOnly, SameSite=Strict, Path=/). */
export const ADMIN_SESSION_COOKIE = 'admin_session';
/**
 * Its name over https (then also Secure). Browsers accept a `__Host-` cookie only when it is Secure, Path=/ and has no
 * Domain, so a sibling subdomain or a plain-http answer cannot plant or shadow the admin session.
 */
export const ADMIN_SESSION_COOKIE_SECURE = `__Host-${ADMIN_SESSION_COOKIE}`;
/** 5 failed logins per client address within 15 minutes -> 429 with Retry-After. */
export const LOGIN_MAX_FAILURES = 5;
export const LOGIN_FAILURE_WINDOW_MS = 15 * 60_000;

export const ADMIN_SECTIONS = ['dashboard', 'alerts', 'posts', 'integrations', 'media', 'deploys'] as const;
export type AdminSection = (typeof ADMIN_SECTIONS)[number];
export const adminSectionSchema = z.enum(ADMIN_SECTIONS);

/** Exact strings of the spec (section 8) and of the login answers. */
export const ADMIN_MESSAGES = {
  incorrectPassword: 'Incorrect password',
  passwordRequired: 'Password is required',
  /** 503 `admin_not_configured` when neither ADMIN_PASSWORD nor ADMIN_PASSWORD_HASH is set. */
  notConfigured:
    'The admin password is not set. Set ADMIN_PASSWORD, or ADMIN_PASSWORD_HASH (from `npm run hash-password`), in the server environment and restart it.',
  tooManyAttempts: 'Too many failed login attempts. Please wait and try again later.',
  sessionRequired: 'Please log in to the admin panel.',
  crossOrigin: 'This request did not come from this site.',
  postNotFound: 'Post not found',
  leadNotFound: 'Message not found',
  alertNotFound: 'Alert not found',
  postConflict: 'This post was changed elsewhere since you opened it. Reload it to see the latest version.',
  notAvailable: 'not available on this host',
} as const;

/** `POST /api/admin/login` body. The field is required (spec section 5). */
export const adminLoginRequestSchema = z.object({
  password: z
    .string({ error: ADMIN_MESSAGES.passwordRequired })
    .min(1, { error: ADMIN_MESSAGES.passwordRequired })
    .max(1024, { error: 'Password must be at most 1024 characters' }),
});
export type AdminLoginRequest = z.infer<typeof adminLoginRequestSchema>;

/**
 * `GET /api/admin/session` (no session needed), also the answer of `POST /api/admin/login` (200, sets the
 * cookie) and of `PUT /api/admin/session`. `passwordConfigured: false` means no login can succeed: the gate
 * shows `ADMIN_MESSAGES.notConfigured`. Login failures: 400 `validation_failed`, 401 `invalid_password`
 * ('Incorrect password'), 429 `rate_limited` (+ `Retry-After` seconds), 503 `admin_not_configured`.
 */
export const adminSessionSchema = z.object({
  authenticated: z.boolean(),
  passwordConfigured: z.boolean(),
  /** The section saved in the session (null when logged out). */
  activeSection: adminSectionSchema.nullable(),
  /** ISO time the session ends at the latest (age or inactivity, whichever is first); null when logged out. */
  expiresAt: z.string().nullable(),
});
export type AdminSession = z.infer<typeof adminSessionSchema>;

/** `PUT /api/admin/session` body: saves the active section. Answers `adminSessionSchema`. */
export const adminSessionUpdateSchema = z.object({ activeSection: adminSectionSchema });
export type AdminSessionUpdate = z.infer<typeof adminSessionUpdateSchema>;

// `POST /api/admin/logout`: deletes the session server-side, clears the cookie, answers 204.

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
 * `conflict` with `details.current` when the post changed since `expectedUpdatedAt`. Answers `postSchema`.
 */
export const postRevisionRestoreSchema = z.object({
  expectedUpdatedAt: z.string({ error: 'expectedUpdatedAt is required' }).min(1, { error: 'expectedUpdatedAt is required' }).max(60),
});

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

// ------------------------------------------------------------------------------------------------ leads

/** Owner-mail state of a contact message: queued, sent, retrying after a failure, given up, or no SMTP. */
export const LEAD_MAIL_STATES = ['pending', 'sent', 'retrying', 'failed', 'disabled'] as const;
export type LeadMailState = (typeof LEAD_MAIL_STATES)[number];
export const LEAD_FILTERS = ['all', 'unread', 'read', 'handled', 'open'] as const;

/** `GET /api/admin/leads` query: newest first; `q` searches name, email, company, subject, message (full-text: every word, the last one as a prefix; best match first among the newest 1,000 matches; `total` counts the matches up to 1,000, `totalIsLowerBound` says when more match). */
export const adminLeadListQuerySchema = z.object({
  q: z.string().trim().max(200).apply(safeChars()).optional(),
  /** unread: not read yet; read: read; handled: marked handled; open: not handled. */
  filter: z.enum(LEAD_FILTERS).default('all'),
  /**
   * The opaque `nextCursor` (older messages) or `prevCursor` (newer ones) of the page on screen, with the same `q`
   * and `filter`; none for the newest page. With `q` the answer is one ranked page (the best `limit` matches) and
   * takes no cursor.
   */
  cursor: z.string().trim().max(500).apply(safeChars()).optional(),
  limit: z.coerce.number({ error: 'limit must be a number' }).int().min(1).max(100).default(25),
});
export type AdminLeadListQueryInput = z.input<typeof adminLeadListQuerySchema>;
export type AdminLeadListQuery = z.output<typeof adminLeadListQuerySchema>;

export const adminLeadSchema = z.object({
  id: z.string(),
  createdAt: z.string(),
  name: z.string(),
  email: z.string(),
  company: z.string().nullable(),
  subject: z.string().nullable(),
  message: z.string(),
  /** The browser that sent it, as it said (for spotting bots); the client address is only stored hashed. */
  userAgent: z.string().nullable(),
  read: z.boolean(),
  readAt: z.string().nullable(),
  handled: z.boolean(),
  handledAt: z.string().nullable(),
  mail: z.object({
    state: z.enum(LEAD_MAIL_STATES),
    attempts: z.number().int().min(0),
    lastError: z.string().nullable(),
    sentAt: z.string().nullable(),
    nextAttemptAt: z.string().nullable(),
  }),
});
export type AdminLead = z.infer<typeof adminLeadSchema>;

export const adminLeadListSchema = z.object({
  leads: z.array(adminLeadSchema),
  /**
   * Messages matching the filter: all pages, not just this one. With `q`, the matches counted up to 1,000 (a search
   * reads no further than the matches it ranks): see `totalIsLowerBound`.
   */
  total: z.number().int().min(0),
  /** With `q` only: true when more messages match than `total` (it stopped counting at 1,000): show "1,000+". */
  totalIsLowerBound: z.boolean().optional(),
  limit: z.number().int().min(1),
  /** Pass back as `cursor` for the older messages; null on the last page (and with `q`). */
  nextCursor: z.string().nullable(),
  /** Pass back as `cursor` for the newer messages; null on the newest page (and with `q`). */
  prevCursor: z.string().nullable(),
  /** Unread messages over the whole inbox (ignores the filter). */
  unread: z.number().int().min(0),
  /** Messages per filter over the whole inbox (ignores `q`), from counters the database keeps. */
  counts: z.object({ all: z.number().int(), unread: z.number().int(), read: z.number().int(), handled: z.number().int(), open: z.number().int() }),
});
export type AdminLeadList = z.infer<typeof adminLeadListSchema>;

/** `PATCH /api/admin/leads/:id` body: at least one flag, and nothing else. Answers `adminLeadSchema`; unknown id -> 404. */
export const adminLeadUpdateSchema = z
  .strictObject({ read: z.boolean().optional(), handled: z.boolean().optional() })
  .refine((v) => v.read !== undefined || v.handled !== undefined, { error: 'Send read or handled' });
export type AdminLeadUpdate = z.infer<typeof adminLeadUpdateSchema>;

// `GET /api/admin/leads/export.csv` (same `q` and `filter`): text/csv attachment, every matching message, columns
// LEAD_CSV_COLUMNS; cells starting with = + - @ (or tab/CR) are prefixed with ' so spreadsheets do not run them.
export const LEAD_CSV_COLUMNS = ['createdAt', 'name', 'email', 'company', 'subject', 'message', 'read', 'handled', 'mailState'] as const;

// ----------------------------------------------------------------------------------------------- funnel

export const FUNNEL_WINDOWS = [7, 30] as const;

const funnelCountsSchema = z.object({
  analysesStarted: z.number().int().min(0),
  analysesCompleted: z.number().int().min(0),
  analysesErrored: z.number().int().min(0),
  contactSubmits: z.number().int().min(0),
  pageViews: z.number().int().min(0),
});
export type FunnelCounts = z.infer<typeof funnelCountsSchema>;

const viewCount = z.number().int().min(0);
/** Page views by where they came from (the class the browser sent; views sent without one are in `pageViews` only). */
export const funnelReferrersSchema = z.object({ direct: viewCount, internal: viewCount, search: viewCount, social: viewCount, other: viewCount });
export type FunnelReferrers = z.infer<typeof funnelReferrersSchema>;

export const funnelWindowSchema = funnelCountsSchema.extend({
  days: z.number().int(),
  from: z.string(),
  to: z.string(),
  /** Most viewed paths (page_view events), at most 10. */
  topPages: z.array(z.object({ path: z.string(), views: z.number().int().min(0) })),
  // A server from before page views had a class answers without it: all zero.
  referrers: funnelReferrersSchema.default({ direct: 0, internal: 0, search: 0, social: 0, other: 0 }),
  /** One entry per UTC day of the window, oldest first, for the chart. */
  daily: z.array(funnelCountsSchema.extend({ date: z.string() })),
});
export type FunnelWindow = z.infer<typeof funnelWindowSchema>;

/** `GET /api/admin/funnel`: the last 7 and the last 30 days, from the stored tracking events. */
export const adminFunnelSchema = z.object({ windows: z.array(funnelWindowSchema) });
export type AdminFunnel = z.infer<typeof adminFunnelSchema>;

// ----------------------------------------------------------------------------------------------- health

export const HEALTH_STATUSES = ['ok', 'warning', 'down', 'unknown'] as const;
export type HealthStatus = (typeof HEALTH_STATUSES)[number];
export const HEALTH_CHECK_KINDS = ['database', 'remote', 'outbox', 'disk', 'memory', 'cpu'] as const;

export const healthCheckSchema = z.object({
  /** Stable id: `database`, `remote:blog`, `shell`, `outbox`, `disk`, `memory`, `cpu`. */
  id: z.string(),
  kind: z.enum(HEALTH_CHECK_KINDS),
  /** Human label, e.g. 'Database', 'Remote: blog', 'Disk (data volume)'. */
  name: z.string(),
  status: z.enum(HEALTH_STATUSES),
  /** Time the check took (database round trip, remoteEntry.js answer), when it measures one. */
  responseTimeMs: z.number().min(0).nullable(),
  /** A percentage (disk, memory, cpu) or a count (outbox backlog), when the check has one. */
  value: z.number().nullable(),
  unit: z.enum(['percent', 'messages', 'ms']).nullable(),
  /** Remote version from its manifest. */
  version: z.string().nullable(),
  /** One sentence: what was found. */
  message: z.string(),
  checkedAt: z.string(),
});
export type HealthCheck = z.infer<typeof healthCheckSchema>;

/**
 * Which provider keys the free analysis tool has: without one, its part of every scorecard is sample data. Says
 * whether each is set, never its value.
 */
export const analysisDataSourceSchema = z.object({
  /** The environment variable that turns this source's sample data into real data. */
  key: z.enum(['GOOGLE_PLACES_API_KEY', 'YELP_API_KEY']),
  /** What it provides, in the owner's words. */
  provides: z.string(),
  configured: z.boolean(),
});
export type AnalysisDataSource = z.infer<typeof analysisDataSourceSchema>;

/** `GET /api/admin/health` (latest stored results) and `POST /api/admin/health/refresh` (runs them now). */
export const adminHealthSchema = z.object({
  /** Worst status of all checks; `unknown` before the first run. */
  status: z.enum(HEALTH_STATUSES),
  checkedAt: z.string().nullable(),
  checks: z.array(healthCheckSchema),
  /** The analysis tool's provider keys, configured or not (the server's configuration now, not a stored result). */
  analysisData: z.array(analysisDataSourceSchema).optional(),
});
export type AdminHealth = z.infer<typeof adminHealthSchema>;

// ----------------------------------------------------------------------------------------------- alerts

/** Spec section 3: groups and their settings. Thresholds only on infrastructure. */
export const ALERT_GROUPS = {
  git: ['deployment', 'newCommit', 'serverUpdate'],
  infrastructure: ['diskSpace', 'memory', 'cpu'],
  security: ['failedLogins', 'hackAttempts', 'vulnerabilityScan'],
  application: ['healthCheck', 'errors', 'performance', 'webhookDelivery'],
} as const;
export type AlertGroup = keyof typeof ALERT_GROUPS;
export const ALERT_TYPES = [
  'deployment',
  'newCommit',
  'serverUpdate',
  'diskSpace',
  'memory',
  'cpu',
  'failedLogins',
  'hackAttempts',
  'vulnerabilityScan',
  'healthCheck',
  'errors',
  'performance',
  'webhookDelivery',
] as const;
export type AlertType = (typeof ALERT_TYPES)[number];
export const alertTypeSchema = z.enum(ALERT_TYPES);
export const THRESHOLD_ALERT_TYPES = ['diskSpace', 'memory', 'cpu'] as const;
export type ThresholdAlertType = (typeof THRESHOLD_ALERT_TYPES)[number];
/** Spec section 9: default thresholds in percent. */
export const DEFAULT_THRESHOLDS: Record<ThresholdAlertType, number> = { diskSpace: 85, memory: 90, cpu: 90 };

/** Labels for the settings screen. */
export const ALERT_TYPE_LABELS: Record<AlertType, string> = {
  deployment: 'Deployment',
  newCommit: 'New commit',
  serverUpdate: 'Server update',
  diskSpace: 'Disk space',
  memory: 'Memory',
  cpu: 'CPU',
  failedLogins: 'Failed logins',
  hackAttempts: 'Hack attempts',
  vulnerabilityScan: 'Vulnerability scan',
  healthCheck: 'Health check',
  errors: 'Errors',
  performance: 'Performance',
  webhookDelivery: 'Outgoing webhooks',
};

export const THRESHOLD_MESSAGE = 'Threshold must be a whole number from 1 to 100';
/** A threshold in percent: a whole number 1–100 (spec section 5). Same schema in the form and the API. */
export const alertThresholdSchema = z
  .number({ error: THRESHOLD_MESSAGE })
  .int({ error: THRESHOLD_MESSAGE })
  .min(1, { error: THRESHOLD_MESSAGE })
  .max(100, { error: THRESHOLD_MESSAGE });

/** Parses what a person typed in a threshold input ('85' -> 85); 'abc', '', '0', '101', '8.5' fail. */
export const alertThresholdInputSchema = z
  .string()
  .trim()
  .regex(/^\d{1,3}$/, { error: THRESHOLD_MESSAGE })
  .transform(Number)
  .pipe(alertThresholdSchema);

export const alertSettingSchema = z.object({
  type: alertTypeSchema,
  group: z.enum(Object.keys(ALERT_GROUPS) as [AlertGroup, ...AlertGroup[]]),
  enabled: z.boolean(),
  /** Email the owner when this alert is raised (needs SMTP_URL on the server). */
  email: z.boolean(),
  /** Only diskSpace, memory, cpu. */
  threshold: alertThresholdSchema.nullable(),
});
export type AlertSetting = z.infer<typeof alertSettingSchema>;

/** `GET /api/admin/alerts/settings`: one entry per ALERT_TYPES, in that order. */
export const alertSettingsSchema = z.object({
  settings: z.array(alertSettingSchema),
  /** Whether the server can email alerts (SMTP_URL set). */
  emailConfigured: z.boolean(),
});
export type AlertSettings = z.infer<typeof alertSettingsSchema>;

/**
 * `PATCH /api/admin/alerts/settings/:type` body: any of enabled, email, threshold (threshold only for
 * diskSpace/memory/cpu, 400 otherwise; 0, 101, 'abc' -> 400). Answers `alertSettingsSchema`.
 */
export const alertSettingUpdateSchema = z
  .object({ enabled: z.boolean().optional(), email: z.boolean().optional(), threshold: alertThresholdSchema.optional() })
  .strict()
  .refine((v) => v.enabled !== undefined || v.email !== undefined || v.threshold !== undefined, {
    error: 'Send enabled, email or threshold',
  });
export type AlertSettingUpdate = z.infer<typeof alertSettingUpdateSchema>;

export const ALERT_SEVERITIES = ['critical', 'high', 'medium', 'low'] as const;
export type AlertSeverity = (typeof ALERT_SEVERITIES)[number];

/** Spec section 3 alert history entry, plus what the server knows about it. */
export const alertEntrySchema = z.object({
  id: z.string(),
  type: alertTypeSchema,
  severity: z.enum(ALERT_SEVERITIES),
  title: z.string(),
  message: z.string(),
  /** Extra facts (figures, addresses, paths), shown under the message. */
  detail: z.string().nullable(),
  timestamp: z.string(),
  emailSent: z.boolean(),
  acknowledged: z.boolean(),
  acknowledgedAt: z.string().nullable(),
});
export type AlertEntry = z.infer<typeof alertEntrySchema>;

/** `GET /api/admin/alerts?limit=` (newest first, default 100, at most 500). */
export const alertHistoryQuerySchema = z.object({
  limit: z.coerce.number({ error: 'limit must be a number' }).int().min(1).max(500).default(100),
});
export const alertHistorySchema = z.object({
  alerts: z.array(alertEntrySchema),
  total: z.number().int().min(0),
  unacknowledged: z.number().int().min(0),
});
export type AlertHistory = z.infer<typeof alertHistorySchema>;
// `POST /api/admin/alerts/:id/acknowledge`: answers `alertEntrySchema`; unknown id -> 404 'Alert not found'.
// `DELETE /api/admin/alerts`: clears the history, 204.

// ---------------------------------------------------------------------------------------------- traffic

export const TRAFFIC_CLASSES = ['legitimate', 'suspicious', 'normal'] as const;
export type TrafficClass = (typeof TRAFFIC_CLASSES)[number];

/** One client address of the recent requests (kept in memory, bounded, last hour). */
export const trafficEntrySchema = z.object({
  address: z.string(),
  /** legitimate: private, local or container range; suspicious: flagged by a rule; normal: public, unflagged. */
  classification: z.enum(TRAFFIC_CLASSES),
  /** Why: 'private range', 'loopback', 'many 4xx answers', 'rate limited'… */
  reason: z.string(),
  requests: z.number().int().min(0),
  clientErrors: z.number().int().min(0),
  serverErrors: z.number().int().min(0),
  rateLimited: z.number().int().min(0),
  firstSeen: z.string(),
  lastSeen: z.string(),
});
export type TrafficEntry = z.infer<typeof trafficEntrySchema>;

/** `GET /api/admin/traffic`: suspicious first, then by requests. */
export const adminTrafficSchema = z.object({
  windowMinutes: z.number().int(),
  entries: z.array(trafficEntrySchema),
  totals: z.object({
    addresses: z.number().int(),
    requests: z.number().int(),
    suspicious: z.number().int(),
    legitimate: z.number().int(),
  }),
});
export type AdminTraffic = z.infer<typeof adminTrafficSchema>;

// --------------------------------------------------------------------------------- docker, vulnerabilities

const unavailableSchema = z.object({ available: z.literal(false), reason: z.string() });

export const dockerContainerSchema = z.object({
  id: z.string(),
  name: z.string(),
  image: z.string(),
  /** Docker's state: running, exited, restarting… */
  status: z.string(),
  health: z.enum(['healthy', 'unhealthy', 'starting', 'none']),
  /** e.g. '3000/tcp', '0.0.0.0:8080->3000/tcp' */
  ports: z.array(z.string()),
  lastCheck: z.string(),
});
export type DockerContainer = z.infer<typeof dockerContainerSchema>;

/** `GET /api/admin/docker`: containers from the Docker socket when mounted, else `available: false`. */
export const dockerSummarySchema = z.discriminatedUnion('available', [
  z.object({
    available: z.literal(true),
    total: z.number().int(),
    running: z.number().int(),
    healthy: z.number().int(),
    unhealthy: z.number().int(),
    containers: z.array(dockerContainerSchema),
    checkedAt: z.string(),
  }),
  unavailableSchema,
]);
export type DockerSummary = z.infer<typeof dockerSummarySchema>;

/** `GET /api/admin/vulnerabilities`: counts from the dependency audit report written at build time, if any. */
export const vulnerabilitySummarySchema = z.discriminatedUnion('available', [
  z.object({
    available: z.literal(true),
    critical: z.number().int().min(0),
    high: z.number().int().min(0),
    moderate: z.number().int().min(0),
    low: z.number().int().min(0),
    total: z.number().int().min(0),
    /** When the audit ran (the report file's time). */
    generatedAt: z.string(),
    source: z.string(),
  }),
  unavailableSchema,
]);
export type VulnerabilitySummary = z.infer<typeof vulnerabilitySummarySchema>;
