import { z } from 'zod';
import {
  ADMIN_MESSAGES,
  ADMIN_SESSION_COOKIE_SECURE,
  adminFunnelSchema,
  adminHealthSchema,
  adminLeadListQuerySchema,
  adminLeadListSchema,
  adminLeadSchema,
  adminLeadUpdateSchema,
  adminLoginRequestSchema,
  adminPostCreateSchema,
  adminPostListQuerySchema,
  adminPostListSchema,
  adminPostPreviewRequestSchema,
  adminPostPreviewSchema,
  adminPostScheduleSchema,
  adminPostUpdateSchema,
  adminSessionSchema,
  adminSessionUpdateSchema,
  adminTrafficSchema,
  alertEntrySchema,
  alertHistoryQuerySchema,
  alertHistorySchema,
  alertSettingsSchema,
  alertSettingUpdateSchema,
  alertTypeSchema,
  deletedPostListSchema,
  dockerSummarySchema,
  postRevisionListQuerySchema,
  postRevisionListSchema,
  postRevisionRestoreSchema,
  postRevisionSchema,
  vulnerabilitySummarySchema,
} from '@site/contracts/admin';
import { MEDIA_ALT_MAX, MEDIA_MAX_BYTES, mediaAltSchema, mediaItemSchema, mediaListSchema } from '@site/contracts/media';
import { POST_MAX_RULES, POST_MIN_RULES, POST_TEXT_RULES, postSchema } from '@site/contracts/posts';
import { textPattern } from '@site/contracts/text';
import {
  webhookAttemptListSchema,
  webhookDeliveryListQuerySchema,
  webhookDeliveryListSchema,
  webhookDeliverySchema,
  webhookEndpointCreateSchema,
  webhookEndpointListSchema,
  webhookEndpointSchema,
  webhookEndpointUpdateSchema,
  webhookEndpointWithSecretSchema,
} from '@site/contracts/webhooks-out';
import { COMMON_ERRORS, error, errorResponse, type DocumentedOperation, type DocumentedResponse } from './openapi-parts';

/*
 * The admin API (`/api/admin/*`) in the OpenAPI description: every route of the admin routers, with the session
 * cookie as its security and the answers each route can give. A test checks that the router's routes and these match.
 */

/**
 * The post fields of a request as validated: the contract's shape plus the length rules the post service applies
 * after trimming (minLength, maxLength and a pattern that says "after trimming").
 */
export function documentedPostFields<T extends z.ZodObject>(schema: T) {
  const withPublishAt = 'publishAt' in schema.shape;
  return schema.extend(
    Object.fromEntries(
      POST_MIN_RULES.map((rule) => [
        rule.field,
        z
          .string()
          .min(rule.min)
          .max(POST_MAX_RULES.find((m) => m.field === rule.field)!.max)
          .meta({ pattern: textPattern({ ...POST_TEXT_RULES[rule.field], minLength: rule.min }) }),
      ]),
    ) as Record<(typeof POST_MIN_RULES)[number]['field'], z.ZodString>,
  ).meta({
    description:
      'The HTML `content` is sanitized before its length rule applies (what the sanitizer drops, e.g. a script element or an unknown tag, does not count).' +
      (withPublishAt ? ' Status `scheduled` needs `publishAt`, in the future and at most a year ahead.' : ''),
    // `publishAt` only with status "scheduled", and status "scheduled" only with `publishAt` (the rest of the schedule's
    // rules, in the future and at most a year ahead, are in the description).
    ...(withPublishAt
      ? {
          anyOf: [{ not: { properties: { publishAt: {} }, required: ['publishAt'] } }, { properties: { status: { const: 'scheduled' } }, required: ['status'] }],
          if: { properties: { status: { const: 'scheduled' } }, required: ['status'] },
          then: { properties: { publishAt: { type: 'string' } }, required: ['publishAt'] },
        }
      : {}),
  });
}

const ADMIN = 'Admin';
const idParam = (description: string, example: string) => ({ description, example });

const UNAUTHORIZED = errorResponse('No live admin session (log in with POST /api/admin/login).', error('unauthorized', ADMIN_MESSAGES.sessionRequired));
const FORBIDDEN = errorResponse(
  'A state-changing request whose Origin (or Referer) is not this site (CSRF defence).',
  error('forbidden', ADMIN_MESSAGES.crossOrigin),
);
const badRequest = (description: string, example: unknown) => errorResponse(description, example);
const VALIDATION = badRequest('A field breaks a rule; `details` names each field and its rule.', error('validation_failed', 'activeSection: Invalid option', [{ path: 'activeSection', message: 'Invalid option' }]));
const POST_VALIDATION = badRequest(
  "A field breaks a rule: the spec's 'Validation failed: ' sentence; `details` names each field and its rule.",
  error('validation_failed', 'Validation failed: Title must be at least 5 characters long', [{ path: 'title', message: 'must be at least 5 characters (got 3)' }]),
);
const POST_NOT_FOUND = errorResponse('No post has this id.', error('not_found', ADMIN_MESSAGES.postNotFound));
const POST_CONFLICT = errorResponse(
  'The post changed since `expectedUpdatedAt` (`details.current` is the stored post), or its status does not allow this.',
  error('conflict', ADMIN_MESSAGES.postConflict),
);
const WEBHOOK_NOT_FOUND = errorResponse('No endpoint has this id.', error('webhook_not_found', 'Webhook endpoint not found'));

/** Every admin route answers 401 without a session; state-changing ones 403 across origins; JSON bodies 413/415. */
function adminResponses(method: DocumentedOperation['method'], jsonBody: boolean, own: Record<number, DocumentedResponse>): Record<number, DocumentedResponse> {
  const out: Record<number, DocumentedResponse> = { ...own, 401: UNAUTHORIZED };
  if (method !== 'get') out[403] = FORBIDDEN;
  if (jsonBody) Object.assign(out, { 413: COMMON_ERRORS[413], 415: COMMON_ERRORS[415] });
  return out;
}

type AdminOperation = Omit<DocumentedOperation, 'tag' | 'security'> & { jsonBody?: boolean };

const EXAMPLE_SESSION = { authenticated: true, passwordConfigured: true, activeSection: 'posts', expiresAt: '2026-05-05T09:00:00.000Z' };
/** The post of every example: what the admin form sends (the webhook's example is the same post, published). */
export const EXAMPLE_POST_INPUT = {
  title: 'Five automations for busy salons',
  excerpt: 'Small automations that give a salon team back hours every week.',
  content:
    '<h2>Start small</h2><p>Reminders, rebooking and review requests are the three automations that pay back fastest for a salon. Here is how to set each up.</p>',
  author: 'Tri-Valley AI Team',
  category: 'How-To Guides',
  metaDescription: 'Five simple automations that save a busy salon several hours every single week.',
  keywords: ['salon', 'automation'],
};
const POST_ID = idParam('The post id.', '3f1c9a4e-2b7d-4c1e-9a55-0d6f2e8b7c10');
const WEBHOOK_ID = idParam('The endpoint id.', 'whk_5d2f0c1a');

const operations: AdminOperation[] = [
  // ------------------------------------------------------------------------------------------- session
  {
    method: 'post',
    path: '/api/admin/login',
    summary: 'Log in with the admin password; sets the session cookie',
    description: `Same-origin only. 5 failed logins per client address within 15 minutes lock the login (429 with Retry-After). Over https the cookie is \`${ADMIN_SESSION_COOKIE_SECURE}\` (HttpOnly, Secure, SameSite=Strict, Path=/).`,
    jsonBody: true,
    body: { schema: adminLoginRequestSchema, example: { password: 'correct horse battery staple' } },
    responses: {
      200: { description: 'Logged in; `Set-Cookie` carries the session.', body: { schema: adminSessionSchema, example: EXAMPLE_SESSION }, headers: { 'Set-Cookie': 'The session cookie.' } },
      400: badRequest('No password.', error('validation_failed', 'password: Password is required', [{ path: 'password', message: ADMIN_MESSAGES.passwordRequired }])),
      401: errorResponse('Wrong password.', error('invalid_password', ADMIN_MESSAGES.incorrectPassword)),
      403: FORBIDDEN,
      413: COMMON_ERRORS[413],
      415: COMMON_ERRORS[415],
      429: errorResponse('Too many failed logins from this address.', error('rate_limited', ADMIN_MESSAGES.tooManyAttempts), COMMON_ERRORS[429].headers),
      503: errorResponse('No admin password is configured on the server.', error('admin_not_configured', ADMIN_MESSAGES.notConfigured)),
    },
  },
  {
    method: 'get',
    path: '/api/admin/session',
    summary: 'Whether a session is live (no session needed); a cookie of an ended session is cleared',
    responses: { 200: { description: 'The session, or `authenticated: false`.', body: { schema: adminSessionSchema, example: EXAMPLE_SESSION } } },
  },
  {
    method: 'put',
    path: '/api/admin/session',
    summary: 'Save the active section of the admin panel in the session',
    jsonBody: true,
    body: { schema: adminSessionUpdateSchema, example: { activeSection: 'posts' } },
    responses: { 200: { description: 'The session.', body: { schema: adminSessionSchema, example: EXAMPLE_SESSION } }, 400: VALIDATION },
  },
  {
    method: 'post',
    path: '/api/admin/logout',
    summary: 'Log out: deletes the session and clears the cookie',
    responses: { 204: { description: 'Logged out.' } },
  },
  // --------------------------------------------------------------------------------------------- posts
  {
    method: 'get',
    path: '/api/admin/posts',
    summary: 'Posts of every status, newest change first, with counts per status',
    query: adminPostListQuerySchema,
    responses: {
      200: { description: 'One page.', body: { schema: adminPostListSchema } },
      400: badRequest('A bad query field.', error('validation_failed', 'limit: Too big: expected number to be <=100', [{ path: 'limit', message: 'Too big: expected number to be <=100' }])),
    },
  },
  {
    method: 'post',
    path: '/api/admin/posts/preview',
    summary: 'The article HTML as it would be stored (sanitized); stores nothing',
    jsonBody: true,
    body: { schema: adminPostPreviewRequestSchema, example: { content: '<p>Hello <script>x()</script>world</p>' } },
    responses: { 200: { description: 'The sanitized HTML.', body: { schema: adminPostPreviewSchema, example: { content: '<p>Hello world</p>' } } }, 400: POST_VALIDATION },
  },
  {
    method: 'get',
    path: '/api/admin/posts/deleted',
    summary: 'Posts deleted in the last 30 days, most recent first',
    responses: { 200: { description: 'The deleted posts.', body: { schema: deletedPostListSchema } } },
  },
  {
    method: 'get',
    path: '/api/admin/posts/{id}',
    summary: 'One post of any status',
    params: { id: POST_ID },
    responses: { 200: { description: 'The post.', body: { schema: postSchema, component: 'Post' } }, 404: POST_NOT_FOUND },
  },
  {
    method: 'post',
    path: '/api/admin/posts',
    summary: 'Create a post (a draft)',
    description: 'Slug, read time and category are derived; the HTML is sanitized. `status` and `publishAt` are ignored (use publish and schedule).',
    jsonBody: true,
    body: { schema: documentedPostFields(adminPostCreateSchema), example: EXAMPLE_POST_INPUT },
    responses: { 201: { description: 'Created.', body: { schema: postSchema, component: 'Post' } }, 400: POST_VALIDATION, 409: errorResponse('No free address for the post; try again.', error('conflict', 'The post could not get a free address. Please try again.')) },
  },
  {
    method: 'put',
    path: '/api/admin/posts/{id}',
    summary: 'Save a post (its status stays)',
    params: { id: POST_ID },
    jsonBody: true,
    body: { schema: documentedPostFields(adminPostUpdateSchema), example: { ...EXAMPLE_POST_INPUT, expectedUpdatedAt: '2026-05-04T09:00:00.000Z' } },
    responses: { 200: { description: 'The saved post.', body: { schema: postSchema, component: 'Post' } }, 400: POST_VALIDATION, 404: POST_NOT_FOUND, 409: POST_CONFLICT },
  },
  {
    method: 'post',
    path: '/api/admin/posts/{id}/publish',
    summary: 'Publish a draft or a scheduled post now',
    params: { id: POST_ID },
    responses: { 200: { description: 'The published post.', body: { schema: postSchema, component: 'Post' } }, 404: POST_NOT_FOUND, 409: POST_CONFLICT },
  },
  {
    method: 'post',
    path: '/api/admin/posts/{id}/schedule',
    summary: 'Schedule a draft (or move a scheduled post) to publish at `publishAt`',
    description: '`publishAt` is ISO 8601 with its UTC offset, in the future and at most a year ahead (400 otherwise, naming the rule).',
    params: { id: POST_ID },
    jsonBody: true,
    body: { schema: adminPostScheduleSchema, example: { publishAt: '2026-12-01T09:00:00-08:00' } },
    responses: { 200: { description: 'The scheduled post.', body: { schema: postSchema, component: 'Post' } }, 400: POST_VALIDATION, 404: POST_NOT_FOUND, 409: POST_CONFLICT },
  },
  {
    method: 'post',
    path: '/api/admin/posts/{id}/unschedule',
    summary: 'A scheduled post back to draft',
    params: { id: POST_ID },
    responses: { 200: { description: 'The draft.', body: { schema: postSchema, component: 'Post' } }, 404: POST_NOT_FOUND, 409: errorResponse('The post is not scheduled.', error('conflict', 'This post is not scheduled')) },
  },
  {
    method: 'get',
    path: '/api/admin/posts/{id}/revisions',
    summary: "A post's revisions, newest first (also of a post deleted in the last 30 days)",
    params: { id: POST_ID },
    query: postRevisionListQuerySchema,
    responses: {
      200: { description: 'One page of revisions.', body: { schema: postRevisionListSchema } },
      400: badRequest('A bad query field.', error('validation_failed', 'page: page must be a number', [{ path: 'page', message: 'page must be a number' }])),
      404: POST_NOT_FOUND,
    },
  },
  {
    method: 'get',
    path: '/api/admin/posts/{id}/revisions/{revisionId}',
    summary: 'One revision with the post as it was then',
    params: { id: POST_ID, revisionId: idParam('The revision id.', 'rev_0b6e1c2d') },
    responses: { 200: { description: 'The revision.', body: { schema: postRevisionSchema } }, 404: errorResponse('No such revision of this post.', error('not_found', 'Revision not found')) },
  },
  {
    method: 'post',
    path: '/api/admin/posts/{id}/revisions/{revisionId}/restore',
    summary: "Restore a revision's fields as a new revision (status and slug stay)",
    params: { id: POST_ID, revisionId: idParam('The revision id.', 'rev_0b6e1c2d') },
    jsonBody: true,
    body: { schema: postRevisionRestoreSchema, example: { expectedUpdatedAt: '2026-05-04T09:00:00.000Z' } },
    responses: {
      200: { description: 'The post with the restored fields.', body: { schema: postSchema, component: 'Post' } },
      400: VALIDATION,
      404: errorResponse('No such post or revision.', error('not_found', 'Revision not found')),
      409: POST_CONFLICT,
    },
  },
  {
    method: 'post',
    path: '/api/admin/posts/{id}/undelete',
    summary: 'Bring back a post deleted in the last 30 days, as a draft',
    params: { id: POST_ID },
    responses: { 201: { description: 'The restored draft.', body: { schema: postSchema, component: 'Post' } }, 404: errorResponse('The post was not deleted in the last 30 days.', error('not_found', 'Deleted post not found')) },
  },
  {
    method: 'delete',
    path: '/api/admin/posts/{id}',
    summary: 'Delete a post (its history is kept 30 days for undelete)',
    params: { id: POST_ID },
    responses: { 204: { description: 'Deleted.' }, 404: POST_NOT_FOUND },
  },
  // --------------------------------------------------------------------------------------------- leads
  {
    method: 'get',
    path: '/api/admin/leads',
    summary: 'Contact messages, newest first, with search, filter and pages',
    query: adminLeadListQuerySchema,
    responses: {
      200: { description: 'One page.', body: { schema: adminLeadListSchema } },
      400: badRequest('A bad query field.', error('validation_failed', 'filter: Invalid option', [{ path: 'filter', message: 'Invalid option' }])),
    },
  },
  {
    method: 'get',
    path: '/api/admin/leads/export.csv',
    summary: 'Every matching contact message as CSV (UTF-8 with a BOM; cells starting with = + - @ are prefixed with \')',
    query: adminLeadListQuerySchema.pick({ q: true, filter: true }),
    responses: {
      200: { description: 'The CSV attachment.', body: { schema: z.string(), contentType: 'text/csv' }, headers: { 'Content-Disposition': 'attachment; filename="contact-messages-<date>.csv"' } },
      400: badRequest('A bad query field.', error('validation_failed', 'filter: Invalid option', [{ path: 'filter', message: 'Invalid option' }])),
    },
  },
  {
    method: 'patch',
    path: '/api/admin/leads/{id}',
    summary: 'Mark a contact message read or handled',
    params: { id: idParam('The message id.', 'lead_1b2c3d4e') },
    jsonBody: true,
    body: { schema: adminLeadUpdateSchema.meta({ minProperties: 1 }), example: { read: true } },
    responses: {
      200: { description: 'The message.', body: { schema: adminLeadSchema } },
      400: badRequest('Neither flag, or a flag that is not true/false.', error('validation_failed', 'Send read or handled', [{ path: '(body)', message: 'Send read or handled' }])),
      404: errorResponse('No message has this id.', error('not_found', ADMIN_MESSAGES.leadNotFound)),
    },
  },
  // --------------------------------------------------------------------------------------------- media
  {
    method: 'post',
    path: '/api/admin/media',
    summary: 'Upload an image to the media library (multipart field `file`, optional `alt`)',
    description: `JPEG, PNG, WebP, AVIF or GIF up to ${MEDIA_MAX_BYTES / 1024 / 1024} MB; the bytes decide the type and must agree with the name and the declared type; SVG is refused. Variants and an Open Graph image are made; metadata is stripped. The same image uploaded again answers 200 with the stored item.`,
    body: {
      schema: z.object({
        file: z.string().meta({ contentMediaType: 'application/octet-stream', description: 'The image file.' }),
        alt: z.string().max(MEDIA_ALT_MAX).optional(),
      }),
      contentType: 'multipart/form-data',
    },
    responses: {
      201: { description: 'Stored.', body: { schema: mediaItemSchema, component: 'MediaItem' } },
      200: { description: 'This image was already stored.', body: { schema: mediaItemSchema, component: 'MediaItem' } },
      400: badRequest('No file, an empty or unsupported file, or a name or type that does not match the bytes.', error('unsupported_type', 'Only JPEG, PNG, WebP, AVIF and GIF images are accepted.')),
      413: errorResponse('The image is larger than 10 MB.', error('payload_too_large', 'The image is larger than 10 MB.')),
      415: errorResponse('Not multipart/form-data.', error('unsupported_media_type', 'Send the file as multipart/form-data in the field "file".')),
    },
  },
  {
    method: 'get',
    path: '/api/admin/media',
    summary: 'The media library with where each image is used',
    responses: { 200: { description: 'Every image, newest first.', body: { schema: mediaListSchema } } },
  },
  {
    method: 'patch',
    path: '/api/admin/media/{id}',
    summary: "Set an image's alt text",
    params: { id: idParam('The media id.', '0123456789abcdef01234567') },
    jsonBody: true,
    body: { schema: mediaAltSchema, example: { alt: 'A salon front desk' } },
    responses: {
      200: { description: 'The image.', body: { schema: mediaItemSchema, component: 'MediaItem' } },
      400: badRequest('A bad alt text.', error('validation_failed', 'alt: must be at most 300 characters', [{ path: 'alt', message: 'must be at most 300 characters' }])),
      404: errorResponse('No such image.', error('media_not_found', 'No such image.')),
    },
  },
  {
    method: 'delete',
    path: '/api/admin/media/{id}',
    summary: 'Delete an image (refused while a post uses it)',
    params: { id: idParam('The media id.', '0123456789abcdef01234567') },
    responses: {
      204: { description: 'Deleted.' },
      404: errorResponse('No such image.', error('media_not_found', 'No such image.')),
      409: errorResponse('A post uses the image.', error('media_in_use', 'This image is used by Five automations for busy salons. Choose another image there first.')),
    },
  },
  // ---------------------------------------------------------------------------------------- monitoring
  {
    method: 'get',
    path: '/api/admin/health',
    summary: 'The latest health checks and which analysis provider keys are set',
    responses: { 200: { description: 'The stored results.', body: { schema: adminHealthSchema, component: 'AdminHealth' } } },
  },
  {
    method: 'post',
    path: '/api/admin/health/refresh',
    summary: 'Run the health checks now',
    responses: { 200: { description: 'The new results.', body: { schema: adminHealthSchema, component: 'AdminHealth' } } },
  },
  {
    method: 'get',
    path: '/api/admin/alerts/settings',
    summary: 'Alert settings, one per alert type',
    responses: { 200: { description: 'The settings.', body: { schema: alertSettingsSchema, component: 'AlertSettings' } } },
  },
  {
    method: 'patch',
    path: '/api/admin/alerts/settings/{type}',
    summary: 'Change one alert setting (a threshold only for diskSpace, memory and cpu)',
    params: { type: { description: 'The alert type.', example: 'diskSpace', schema: alertTypeSchema } },
    jsonBody: true,
    body: { schema: alertSettingUpdateSchema.meta({ minProperties: 1 }), example: { enabled: true, threshold: 85 } },
    responses: {
      200: { description: 'Every setting.', body: { schema: alertSettingsSchema, component: 'AlertSettings' } },
      400: badRequest('An unknown type, no field, a bad value, or a threshold for a type without one.', error('validation_failed', 'threshold: Threshold must be a whole number from 1 to 100', [{ path: 'threshold', message: 'Threshold must be a whole number from 1 to 100' }])),
    },
  },
  {
    method: 'get',
    path: '/api/admin/alerts',
    summary: 'Alert history, newest first',
    query: alertHistoryQuerySchema,
    responses: {
      200: { description: 'The history.', body: { schema: alertHistorySchema } },
      400: badRequest('A bad limit.', error('validation_failed', 'limit: limit must be a number', [{ path: 'limit', message: 'limit must be a number' }])),
    },
  },
  {
    method: 'post',
    path: '/api/admin/alerts/{id}/acknowledge',
    summary: 'Acknowledge an alert',
    params: { id: idParam('The alert id.', 'alert_5e6f7a8b') },
    responses: { 200: { description: 'The alert.', body: { schema: alertEntrySchema } }, 404: errorResponse('No alert has this id.', error('not_found', ADMIN_MESSAGES.alertNotFound)) },
  },
  {
    method: 'delete',
    path: '/api/admin/alerts',
    summary: 'Clear the alert history',
    responses: { 204: { description: 'Cleared.' } },
  },
  {
    method: 'get',
    path: '/api/admin/traffic',
    summary: 'Client addresses of the last hour, suspicious first',
    responses: { 200: { description: 'The snapshot.', body: { schema: adminTrafficSchema } } },
  },
  {
    method: 'get',
    path: '/api/admin/docker',
    summary: 'Containers from the Docker socket, when it is mounted',
    responses: { 200: { description: 'The containers, or `available: false` with the reason.', body: { schema: dockerSummarySchema } } },
  },
  {
    method: 'get',
    path: '/api/admin/vulnerabilities',
    summary: 'Counts from the dependency audit written at build time, if any',
    responses: { 200: { description: 'The counts, or `available: false` with the reason.', body: { schema: vulnerabilitySummarySchema } } },
  },
  {
    method: 'get',
    path: '/api/admin/funnel',
    summary: 'Analyses, contact messages and page views of the last 7 and 30 days',
    responses: { 200: { description: 'The two windows.', body: { schema: adminFunnelSchema } } },
  },
  // ------------------------------------------------------------------------------------ outgoing webhooks
  {
    method: 'get',
    path: '/api/admin/webhooks',
    summary: 'The endpoints that receive outgoing webhooks (never their secrets)',
    responses: { 200: { description: 'The endpoints.', body: { schema: webhookEndpointListSchema } } },
  },
  {
    method: 'post',
    path: '/api/admin/webhooks',
    summary: 'Register an endpoint; the answer shows its signing secret once',
    jsonBody: true,
    body: { schema: webhookEndpointCreateSchema, example: { url: 'https://n8n.example.com/webhook/site', description: 'n8n', events: ['lead.created'], enabled: true } },
    responses: {
      201: { description: 'Created, with `secret`.', body: { schema: webhookEndpointWithSecretSchema } },
      400: badRequest('A bad field.', error('validation_failed', 'Validation failed: url: Enter an http:// or https:// address', [{ path: 'url', message: 'Enter an http:// or https:// address' }])),
    },
  },
  {
    method: 'patch',
    path: '/api/admin/webhooks/{id}',
    summary: 'Change an endpoint; `regenerateSecret: true` answers a new secret',
    params: { id: WEBHOOK_ID },
    jsonBody: true,
    body: { schema: webhookEndpointUpdateSchema, example: { enabled: false } },
    responses: {
      200: { description: 'The endpoint (with `secret` after regenerateSecret).', body: { schema: z.union([webhookEndpointWithSecretSchema, webhookEndpointSchema]) } },
      400: badRequest('A bad or unknown field.', error('validation_failed', 'Validation failed: events: Choose at least one event', [{ path: 'events', message: 'Choose at least one event' }])),
      404: WEBHOOK_NOT_FOUND,
    },
  },
  {
    method: 'delete',
    path: '/api/admin/webhooks/{id}',
    summary: 'Remove an endpoint and its delivery log',
    params: { id: WEBHOOK_ID },
    responses: { 204: { description: 'Removed.' }, 404: WEBHOOK_NOT_FOUND },
  },
  {
    method: 'post',
    path: '/api/admin/webhooks/{id}/test',
    summary: 'Send a `webhook.test` event to the endpoint now',
    params: { id: WEBHOOK_ID },
    responses: {
      200: { description: 'The delivery with its first attempt.', body: { schema: webhookDeliverySchema, component: 'WebhookDelivery' } },
      400: badRequest('The endpoint is disabled.', error('webhook_disabled', 'Enable the endpoint before sending a test event.')),
      404: WEBHOOK_NOT_FOUND,
    },
  },
  {
    method: 'get',
    path: '/api/admin/webhooks/{id}/deliveries',
    summary: "The endpoint's delivery log, newest first",
    params: { id: WEBHOOK_ID },
    query: webhookDeliveryListQuerySchema,
    responses: {
      200: { description: 'The deliveries.', body: { schema: webhookDeliveryListSchema } },
      400: badRequest('A bad limit.', error('validation_failed', 'Validation failed: limit: Too big: expected number to be <=200', [{ path: 'limit', message: 'Too big: expected number to be <=200' }])),
      404: WEBHOOK_NOT_FOUND,
    },
  },
  {
    method: 'get',
    path: '/api/admin/webhooks/{id}/deliveries/{deliveryId}/attempts',
    summary: 'Every attempt of one delivery, with its answer or network error',
    params: { id: WEBHOOK_ID, deliveryId: idParam('The delivery id.', 'dlv_7c8d9e0f') },
    responses: {
      200: { description: 'The attempts.', body: { schema: webhookAttemptListSchema } },
      404: errorResponse('No such endpoint or delivery.', error('delivery_not_found', 'Delivery not found')),
    },
  },
  {
    method: 'post',
    path: '/api/admin/webhooks/{id}/deliveries/{deliveryId}/redeliver',
    summary: 'Send a delivery again (same event id and body)',
    params: { id: WEBHOOK_ID, deliveryId: idParam('The delivery id.', 'dlv_7c8d9e0f') },
    responses: {
      201: { description: 'The new delivery with its first attempt.', body: { schema: webhookDeliverySchema, component: 'WebhookDelivery' } },
      400: badRequest('The endpoint is disabled.', error('webhook_disabled', 'Enable the endpoint before redelivering.')),
      404: errorResponse('No such endpoint or delivery.', error('delivery_not_found', 'Delivery not found')),
    },
  },
];

/** The two admin routes that need no session: the login, and the probe that says whether there is one. */
const PUBLIC_ROUTES: Record<string, DocumentedOperation['security']> = { 'post /api/admin/login': 'public', 'get /api/admin/session': 'public-or-admin' };

/** The admin routes, each behind the session cookie (the login itself is public, same-origin). */
export const ADMIN_OPERATIONS: readonly DocumentedOperation[] = operations.map(({ jsonBody, ...op }) => ({
  ...op,
  tag: ADMIN,
  security: PUBLIC_ROUTES[`${op.method} ${op.path}`] ?? 'admin',
  responses: PUBLIC_ROUTES[`${op.method} ${op.path}`] ? op.responses : adminResponses(op.method, Boolean(jsonBody), op.responses),
}));
