import { webhookPostSchema, webhookResultSchema } from '@site/contracts/posts';
import { SIGNATURE_HEADER } from './incoming-webhook-service';
import { defineEndpoints } from '../http/endpoint';
import { documentedPostFields, error, errorResponse, EXAMPLE_POST, EXAMPLE_WEBHOOK_BODY } from '../http/openapi-parts';

/**
 * `POST /api/webhook`: creates a post from an external workflow (n8n). Authenticated with an HMAC-SHA256
 * signature over the raw body (see docs/integrations.md); 503 while WEBHOOK_SECRET is unset.
 */
export const webhookRoutes = defineEndpoints({ config: ['bodyLimit', 'rateLimitMultiplier'], services: ['webhook'], context: ['rateLimits'] }, (endpoint) => [
  endpoint({
    method: 'post',
    path: '/api/webhook',
    tag: 'Webhook',
    auth: 'webhook',
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
    rateLimits: [{ windowMs: 60_000, max: 30, keyPrefix: 'webhook', message: 'Too many webhook deliveries. Please retry later.' }],
    headers: {
      'Idempotency-Key': {
        description:
          'One per post, the same when that post is sent again: the recipes use the SHA-256 (hex) of the body. A key two posts share (a date, an n8n execution with several items) makes the second a 409. Surrounding white space is ignored and only the first 200 characters count.',
        example: '9f2b7c4e0d1a5e8f3b6c2d7a4e1f0b9c8d5e2a7f4c1b6e3d0a9f8c7b2e5d4a1f',
      },
    },
    // The webhook service validates it after the signature: its messages are the spec's ('Validation failed: …').
    body: { schema: documentedPostFields(webhookPostSchema), example: EXAMPLE_WEBHOOK_BODY, parse: false },
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
      409: errorResponse(
        'The Idempotency-Key was used with another body, or the same delivery is being processed right now.',
        error('idempotency_conflict', 'This Idempotency-Key was already used with a different body. Use a new key for a new post.'),
      ),
      503: errorResponse(
        'WEBHOOK_SECRET is not set on the server; or, with `storeImages`, the image processing queue is full (`media_busy`): retry after the seconds in Retry-After.',
        error('webhook_disabled', 'The webhook is disabled: WEBHOOK_SECRET is not configured on the server.'),
        { 'Retry-After': 'With `media_busy`: seconds after which a retry may find room.' },
      ),
    },
    handle: async ({ body, headers }, { services }, ctx) => {
      const { result, replayed } = await services.webhook.receive({
        rawBody: (ctx.request as { rawBody?: string }).rawBody ?? '',
        body,
        signature: ctx.get(SIGNATURE_HEADER) || undefined,
        idempotencyKey: headers['Idempotency-Key']?.trim().slice(0, 200) || undefined,
      });
      if (replayed) ctx.set('Idempotent-Replayed', 'true');
      return result;
    },
  }),
]);
