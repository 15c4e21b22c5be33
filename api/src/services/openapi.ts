import { z } from 'zod';
import { smbAnalysisRequestSchema, websiteAnalysisRequestSchema, analysisResponseSchema } from '@site/contracts/analysis';
import { CONTACT_FAILED_MESSAGE, contactErrorResponseSchema, contactRequestSchema, contactResponseSchema } from '@site/contracts/contact';
import { BLOG_FEED_PATH } from '@site/contracts/blog-routes';
import { COMMON_ERRORS, error, errorResponse, type DocumentedBody, type DocumentedOperation, type DocumentedResponse } from './openapi-parts';
import { ADMIN_OPERATIONS, documentedPostFields, EXAMPLE_POST_INPUT } from './openapi-admin';
import { trackingAcceptedSchema, trackingRequestSchema } from '@site/contracts/events';
import { healthSchema } from '@site/contracts/manifest';
import {
  categoryListSchema,
  postListQuerySchema,
  postListSchema,
  postSchema,
  viewsResultSchema,
  webhookPostSchema,
  webhookResultSchema,
  type Post,
} from '@site/contracts/posts';

/*
 * The OpenAPI 3.1 description of the public and webhook API (`GET /api/openapi.json`), generated from the zod contracts
 * the routes validate with (zod's own JSON Schema output, draft 2020-12, which OpenAPI 3.1 uses). Every example below
 * sits next to the schema it must satisfy; a test parses each one with that schema and checks that every public route
 * of the router is described here.
 */

/**
 * A failed contact answer: the error envelope plus the spec's `success: false` and `message` (the same sentence), for
 * every status, as the contact form reads it.
 */
const contactErrorResponse = ({ description, body, headers }: DocumentedResponse): DocumentedResponse => {
  const envelope = body!.example as ReturnType<typeof error>;
  return {
    description: `${description} The answer also carries \`success: false\` and \`message\` (the same sentence as \`error.message\`), as the contact form reads it.`,
    body: { schema: contactErrorResponseSchema, example: { success: false, message: envelope.error.message, ...envelope } },
    headers,
  };
};

export const EXAMPLE_POST: Post = {
  id: '3f1c9a4e-2b7d-4c1e-9a55-0d6f2e8b7c10',
  title: 'Five automations for busy salons',
  slug: 'five-automations-for-busy-salons',
  excerpt: 'Small automations that give a salon team back hours every week.',
  content: '<h2>Start small</h2><p>Reminders, rebooking and review requests pay back fastest for a salon.</p>',
  keywords: ['salon', 'automation'],
  author: 'Tri-Valley AI Team',
  publishedAt: '2026-05-04T09:00:00.000Z',
  publishAt: null,
  createdAt: '2026-05-04T08:55:00.000Z',
  updatedAt: '2026-05-04T09:00:00.000Z',
  status: 'published',
  featuredImage: '/mfe/blog/placeholder.svg',
  category: 'How-To Guides',
  categorySlug: 'how-to-guides',
  readTime: 1,
  views: 12,
  metaDescription: 'Five simple automations that save a busy salon several hours every single week.',
  ogImage: '/mfe/blog/placeholder-og.jpg',
  source: 'n8n',
};
const { content: _content, ...EXAMPLE_SUMMARY } = EXAMPLE_POST;

export const EXAMPLE_WEBHOOK_BODY = { ...EXAMPLE_POST_INPUT, status: 'published' };

/** The webhook body as validated: the contract's shape plus the length rules the post service applies. */
const webhookBodyDocumented = documentedPostFields(webhookPostSchema);

const analysisBody = { schema: analysisResponseSchema, component: 'AnalysisResponse' } satisfies DocumentedBody;

const liveSchema = z.object({ status: z.literal('ok') });
const readySchema = z.object({ status: z.literal('ready') });
const textSchema = z.string();
const binarySchema = z.string().meta({ contentMediaType: 'application/octet-stream' });

const slugParam = { slug: { description: 'The post slug, as in its URL.', example: 'five-automations-for-busy-salons' } };

/** Every public and webhook operation; the admin ones are in ./openapi-admin. */
const PUBLIC_OPERATIONS: readonly DocumentedOperation[] = [
  {
    method: 'get',
    path: '/api/health',
    tag: 'Health',
    security: 'public-or-admin',
    summary: 'Version, database and deployed remotes',
    responses: {
      200: {
        description:
          "Everything answers. Anyone gets each remote's version; an admin session (the panel's cookie) also gets whether its files and server module load, the release its pointer names and since when this instance serves it (see the README).",
        body: { schema: healthSchema, example: { status: 'ok', version: '1.0.0', db: 'ok', remotes: { blog: { version: '1.4.0' } } } },
      },
      503: { description: 'The database does not answer.', body: { schema: healthSchema, example: { status: 'degraded', version: '1.0.0', db: 'down', remotes: {} } } },
    },
  },
  {
    method: 'get',
    path: '/api/health/live',
    tag: 'Health',
    summary: 'Liveness for a load balancer: the process answers',
    responses: { 200: { description: 'Alive.', body: { schema: liveSchema, example: { status: 'ok' } } } },
  },
  {
    method: 'get',
    path: '/api/health/ready',
    tag: 'Health',
    summary: 'Readiness: the database answers and the instance is not shutting down',
    responses: {
      200: { description: 'Send traffic.', body: { schema: readySchema, example: { status: 'ready' } } },
      503: errorResponse('Do not send traffic (draining or database down).', error('draining', 'This instance is shutting down and finishing its requests.')),
    },
  },
  {
    method: 'get',
    path: '/api/openapi.json',
    tag: 'Health',
    summary: 'This document',
    responses: { 200: { description: 'The OpenAPI 3.1 description of the public and webhook API.' } },
  },
  {
    method: 'post',
    path: '/api/contact',
    tag: 'Contact',
    summary: 'Send a message to the owner (stored before the answer; 5 accepted messages per 10 minutes per client)',
    description:
      'Failed attempts (400) do not use up the 5 messages; they have a budget of their own (30 per 10 minutes). Text fields refuse control and text-direction characters; the message keeps line breaks.',
    body: {
      schema: contactRequestSchema,
      example: { name: 'Ada Lovelace', email: 'ada@example.com', company: 'Analytical Engines', subject: 'Missed calls', message: 'We miss calls at lunch time. Can an assistant answer them?' },
    },
    responses: {
      200: {
        description: 'Stored; the owner is told by mail.',
        body: { schema: contactResponseSchema, example: { success: true, message: "Thanks, Ada! Your message has arrived. We'll get back to you within one business day." } },
      },
      400: contactErrorResponse(
        errorResponse(
          'A field breaks a rule (`details` lists each field and message), or the body is not valid JSON.',
          error('validation_failed', 'email: Enter a valid email address', [{ path: 'email', message: 'Enter a valid email address' }]),
        ),
      ),
      413: contactErrorResponse(COMMON_ERRORS[413]),
      415: contactErrorResponse(COMMON_ERRORS[415]),
      429: contactErrorResponse(
        errorResponse(
          'Too many messages (or too many failed attempts) from this client; retry after the number of seconds in Retry-After.',
          error('rate_limited', 'Too many messages from your connection. Please wait a few minutes, or call or email us directly.'),
          COMMON_ERRORS[429].headers,
        ),
      ),
      500: contactErrorResponse(errorResponse('The message could not be stored; nothing was sent.', error('internal_error', CONTACT_FAILED_MESSAGE))),
    },
  },
  {
    method: 'post',
    path: '/api/events',
    tag: 'Analytics',
    summary:
      'Record a first-party tracking event, or a batch `{ events: [...] }` of up to 20 (fetch or navigator.sendBeacon; text/plain holding JSON is accepted). Events from crawlers, prefetches and browsers sending DNT or Sec-GPC are accepted and not stored',
    body: { schema: trackingRequestSchema, example: { events: [{ name: 'page_view', path: '/blog', props: { referrer: 'search' } }] } },
    responses: {
      202: { description: 'Accepted; `recorded` says how many were stored.', body: { schema: trackingAcceptedSchema, example: { accepted: true, recorded: 1 } } },
      400: errorResponse('Unknown event or a bad field.', error('validation_failed', 'path: Path must start with /', [{ path: 'path', message: 'Path must start with /' }])),
      ...COMMON_ERRORS,
    },
  },
  {
    method: 'get',
    path: '/api/posts',
    tag: 'Blog',
    summary: 'Published posts, newest first, one page at a time',
    query: postListQuerySchema,
    responses: {
      200: { description: 'One page; pass `nextCursor` back as `cursor` for the next.', body: { schema: postListSchema, example: { posts: [EXAMPLE_SUMMARY], total: 1, nextCursor: null } } },
      400: errorResponse('A bad limit or a cursor the server did not issue.', error('invalid_cursor', 'The cursor is not valid. Start again from the first page.')),
    },
  },
  {
    method: 'get',
    path: '/api/posts/{slug}',
    tag: 'Blog',
    summary: 'One published post with its HTML content',
    params: slugParam,
    responses: {
      200: { description: 'The post.', body: { schema: postSchema, example: EXAMPLE_POST } },
      404: errorResponse('No published post has this slug.', error('not_found', 'Post not found')),
    },
  },
  {
    method: 'post',
    path: '/api/posts/{slug}/views',
    tag: 'Blog',
    summary: 'Count one view of a published post (60 a minute per client)',
    params: slugParam,
    responses: {
      200: { description: 'The new count.', body: { schema: viewsResultSchema, example: { views: 13 } } },
      404: errorResponse('No published post has this slug.', error('not_found', 'Post not found')),
      429: COMMON_ERRORS[429],
    },
  },
  {
    method: 'get',
    path: '/api/categories',
    tag: 'Blog',
    summary: 'Categories with their number of published posts',
    responses: {
      200: {
        description: 'Every category with at least one published post; drafts and archived posts are not counted.',
        body: { schema: categoryListSchema, example: { categories: [{ id: 'c1', name: 'How-To Guides', slug: 'how-to-guides', description: 'Articles about How-To Guides.', postCount: 1 }] } },
      },
    },
  },
  {
    method: 'get',
    path: BLOG_FEED_PATH,
    tag: 'Blog',
    summary: 'RSS 2.0 feed of the published posts (descriptions are HTML-escaped plain text)',
    responses: { 200: { description: 'The feed.', body: { schema: textSchema, contentType: 'application/rss+xml' } } },
  },
  {
    method: 'get',
    path: '/media/{file}',
    tag: 'Blog',
    summary: 'An image of the media library (content-addressed, cached a year as immutable)',
    description:
      'Names: `<hash>-<width>.<avif|webp|jpg|png|gif>` (480, 960 and 1600 px wide, never wider than the upload), `<hash>-og.jpg` (1200x630) and the media URL `<hash>-<w>x<h>.<ext>` a post stores. No metadata (EXIF, GPS) is kept.',
    params: { file: { description: 'The file name.', example: '0123456789abcdef01234567-960.avif' } },
    responses: {
      200: { description: 'The image, in the format its name ends with.', body: { schema: binarySchema, contentType: ['image/avif', 'image/webp', 'image/jpeg', 'image/png', 'image/gif'] } },
      404: errorResponse('No such file.', error('not_found', 'No such media file.')),
    },
  },
  {
    method: 'get',
    path: '/sitemap.xml',
    tag: 'Blog',
    summary: 'Every public page and post',
    responses: { 200: { description: 'The sitemap.', body: { schema: textSchema, contentType: 'application/xml' } } },
  },
  {
    method: 'post',
    path: '/api/webhook',
    tag: 'Webhook',
    summary: 'Create a blog post from a workflow (n8n, Zapier, a script)',
    description: [
      'Sign the exact bytes you send: `X-Webhook-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>" keyed with WEBHOOK_SECRET>`.',
      'A `t` more than 300 seconds from the server clock is refused. A signature is accepted once: the same signed delivery sent again',
      '(with any Idempotency-Key, or none) answers the first result with `Idempotent-Replayed: true` and creates nothing.',
      'To retry with a fresh signature, send the same `Idempotency-Key` (kept 24 hours): the first result comes back; the same key with',
      'another body is a 409. 400 answers name each field and its rule, e.g. `title: must be at least 5 characters (got 3)`.',
      'The answer links the post: `adminUrl`, its edit page in the admin panel, always; `url`, its public page, only when the post is',
      'published (a draft, the default, has no public page until it is published in the admin panel).',
      'To publish later, send `status: "scheduled"` with `publishAt`, an ISO 8601 date and time with its UTC offset',
      '(`2026-12-01T09:00:00-08:00`; the business is in America/Los_Angeles), in the future and at most a year ahead: the post stays',
      'invisible everywhere until then and is published within seconds of that time (`publishedAt` is the scheduled time); the',
      'answer carries `publishAt` (UTC). `publishAt` with another status, a past time, or one more than a year ahead is a 400 naming',
      'the rule and what was received.',
    ].join(' '),
    security: 'webhook',
    headers: [
      {
        name: 'Idempotency-Key',
        required: false,
        description: 'Any unique id of this delivery (e.g. the n8n execution id); surrounding white space is ignored and only the first 200 characters count.',
        example: 'n8n-exec-4711',
      },
    ],
    body: { schema: webhookBodyDocumented, example: EXAMPLE_WEBHOOK_BODY },
    responses: {
      201: {
        description:
          'Created (or, with `Idempotent-Replayed: true`, the first result of this delivery). `url` (the public page) only when the post is published; `adminUrl` (its edit page in the admin panel) always.',
        body: {
          schema: webhookResultSchema,
          example: {
            id: EXAMPLE_POST.id,
            slug: EXAMPLE_POST.slug,
            status: 'published',
            url: 'https://trivalleyai.com/blog/five-automations-for-busy-salons',
            adminUrl: `https://trivalleyai.com/admin/posts/${EXAMPLE_POST.id}/edit`,
          },
        },
        headers: { 'Idempotent-Replayed': '`true` when this is the stored answer of an earlier delivery.' },
      },
      400: errorResponse(
        "A field breaks a rule: the message is the spec's ('Validation failed: ' and each rule's sentence, in the spec's order, joined by ', '); `details` names each field, its rule and what was received. A bad schedule reads e.g. 'Validation failed: publishAt must be in the future (got Mon, Nov 30, 2026, 9:00 AM PST, now is Tue, Dec 1, 2026, 8:15 AM PST)'.",
        error('validation_failed', 'Validation failed: Title must be at least 5 characters long, Meta description must be at least 50 characters long', [
          { path: 'title', message: 'must be at least 5 characters (got 3)' },
          { path: 'metaDescription', message: 'must be at least 50 characters (got 9)' },
        ]),
      ),
      401: errorResponse('Missing, malformed, expired or wrong signature.', error('invalid_signature', 'The webhook signature does not match the body.')),
      409: errorResponse(
        'The Idempotency-Key was used with another body, or the same delivery is being processed right now.',
        error('idempotency_conflict', 'This Idempotency-Key was already used with a different body. Use a new key for a new post.'),
      ),
      503: errorResponse('WEBHOOK_SECRET is not set on the server.', error('webhook_disabled', 'The webhook is disabled: WEBHOOK_SECRET is not configured on the server.')),
      ...COMMON_ERRORS,
    },
  },
  {
    method: 'post',
    path: '/api/analyze-smb-business',
    tag: 'Analysis',
    summary: 'Scorecard of a local business (20 analyses an hour per client, shared with analyze-website; a `website` without a scheme gets https://)',
    body: { schema: smbAnalysisRequestSchema, example: { businessName: 'Hartz Avenue Bistro', businessType: 'Restaurant', location: 'Danville, CA', website: 'hartzbistro.example' } },
    responses: {
      200: { description: 'The scorecard, stored under its `id`.', body: analysisBody },
      400: errorResponse(
        'A bad field, or a website the server refuses to fetch (`website_refused`).',
        error('validation_failed', 'businessName: Enter a business name', [{ path: 'businessName', message: 'Enter a business name' }]),
      ),
      ...COMMON_ERRORS,
    },
  },
  {
    method: 'post',
    path: '/api/analyze-website',
    tag: 'Analysis',
    summary: 'Scorecard of one website (https:// is added to an address without a scheme)',
    body: { schema: websiteAnalysisRequestSchema, example: { url: 'hartzbistro.example', mode: 'website', location: 'Danville, CA' } },
    responses: {
      200: { description: 'The scorecard, stored under its `id`.', body: analysisBody },
      400: errorResponse('A bad field or a refused website.', error('website_refused', 'This website cannot be analyzed: Only ports 80 and 443 are allowed (got 8080).')),
      ...COMMON_ERRORS,
    },
  },
  {
    method: 'get',
    path: '/api/analyses/{id}',
    tag: 'Analysis',
    summary: 'A stored scorecard',
    params: { id: { description: 'The `id` of an analysis answer.', example: 'Xk3v9QpL2mNa' } },
    responses: {
      200: { description: 'The stored scorecard.', body: analysisBody },
      404: errorResponse('Unknown or malformed id.', error('not_found', 'Analysis not found')),
    },
  },
];

/** Every operation of the API: the router's routes, one for one (a test checks both ways). */
export const OPERATIONS: readonly DocumentedOperation[] = [...PUBLIC_OPERATIONS, ...ADMIN_OPERATIONS];
