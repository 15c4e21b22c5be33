import { z } from 'zod';
import { adminPostScheduleSchema } from '@site/contracts/admin';
import { errorEnvelopeSchema } from '@site/contracts/error';
import { trackedPathSchema } from '@site/contracts/events';
import { POST_MAX_RULES, POST_MIN_RULES, POST_TEXT_RULES, postInputSchema, type Post } from '@site/contracts/posts';
import { textPattern } from '@site/contracts/text';
import { webhookUrlSchema } from '@site/contracts/webhooks-out';
import type { DocumentedResponse } from './endpoint';
import type { DescribedOperation } from './openapi-document';

/*
 * What the endpoints' descriptions share: the error answers, the examples several endpoints show, and the rules the
 * server enforces that zod cannot write as JSON Schema. Each endpoint's own words and examples are in its route file.
 */

export const error = (code: string, message: string, details?: unknown) => ({ error: details === undefined ? { code, message } : { code, message, details } });
export const errorResponse = (description: string, example: unknown, headers?: Record<string, string>): DocumentedResponse => ({
  description,
  body: { schema: errorEnvelopeSchema, example },
  headers,
});

/** One error code an answer may carry: the code and message as the server sends them, and when (the example's summary). */
export interface ErrorCase {
  code: string;
  message: string;
  summary: string;
  /** The example's name, when one code has several examples (several causes); else the code. */
  name?: string;
  details?: unknown;
}

/** An error answer that carries one of several codes: one named example per code (or cause), exactly as sent. */
export const errorCases = (description: string, cases: readonly ErrorCase[], headers?: Record<string, string>): DocumentedResponse => ({
  description,
  body: { schema: errorEnvelopeSchema, examples: Object.fromEntries(cases.map((c) => [c.name ?? c.code, { summary: c.summary, value: error(c.code, c.message, c.details) }])) },
  headers,
});

/** The answers of the body parser and the rate limiter, as every endpoint with a JSON body or a limit gives them. */
export const COMMON_ERRORS = {
  413: errorResponse('The body is larger than BODY_LIMIT (100 KB by default).', error('payload_too_large', 'The request body is larger than this endpoint accepts.')),
  415: errorResponse(
    'The body is not JSON, or its Content-Encoding is not gzip, deflate or br.',
    error('unsupported_media_type', 'Send the body as application/json.'),
  ),
  429: errorResponse('Too many requests from this client; retry after the number of seconds in Retry-After.', error('rate_limited', 'Too many requests. Please wait a moment and try again.'), {
    'Retry-After': 'Seconds until the limit resets.',
  }),
} satisfies Record<number, DocumentedResponse>;

/** What every text field of a request obeys beyond its schema's keywords (JSON Schema has no "after trimming"). */
export const TEXT_RULES_NOTE =
  'Text fields are trimmed of surrounding white space before their length rules apply (`minLength` counts what is left), ' +
  'and the server counts UTF-16 code units: a character beyond U+FFFF (most emoji) counts twice toward `maxLength`. ' +
  'Their `pattern` refuses control characters (tab and line breaks are allowed in multi-line fields), the text-direction ' +
  'overrides and isolates U+202A–U+202E and U+2066–U+2069, and unpaired UTF-16 surrogates; patterns are ECMA-262 ' +
  'regular expressions with the `u` flag.';

// ------------------------------------------------------------------------------------------------------------------

/**
 * Rules the server enforces that zod cannot write as JSON Schema (a refinement, a check in a service), stated for the
 * description beside the schema they belong to: `normalize` in ./openapi-document.ts adds them wherever the schema
 * appears (in a body, inside an optional, in every endpoint that uses it).
 */
export const DOCUMENTED_RULES = z.registry<Record<string, unknown>>();
// A tracked path is the path alone: no query string or fragment (a refinement of the contract).
DOCUMENTED_RULES.add(trackedPathSchema, { pattern: '^/[^?#]*$' });
/**
 * `publishAt` as the post service reads it (@site/contracts/post-schedule): an RFC 3339 date-time with its offset
 * (`Z` or ±hh:mm) and at most 3 digits of fraction. The server also takes one without seconds; this says the form
 * every client can write.
 */
const PUBLISH_AT = { format: 'date-time', pattern: '^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}(?:\\.\\d{1,3})?(?:Z|[+-]\\d{2}:\\d{2})$' };
DOCUMENTED_RULES.add(postInputSchema.shape.publishAt.unwrap(), PUBLISH_AT);
DOCUMENTED_RULES.add(adminPostScheduleSchema.shape.publishAt, PUBLISH_AT);
/**
 * An outgoing webhook's address: http or https, a host, no user name or password (what `webhookUrlSchema`'s
 * refinements accept, stated a little narrower: a host of letters, digits, dots and hyphens, and a port of digits).
 */
DOCUMENTED_RULES.add(webhookUrlSchema, { pattern: '^[Hh][Tt][Tt][Pp][Ss]?://[A-Za-z0-9.-]+(?::[0-9]{1,5})?(?:[/?#][^\\s]*)?$', format: 'uri' });

/**
 * The post fields of a request as validated: the contract's shape plus the length rules the post service applies
 * after trimming (minLength, maxLength and a pattern that says "after trimming"), and the schedule's rules.
 */
export function documentedPostFields<T extends z.ZodObject>(schema: T) {
  const withPublishAt = 'publishAt' in schema.shape;
  return schema
    .extend(
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
    )
    .meta({
      description:
        'The HTML `content` is sanitized before its length rule applies (what the sanitizer drops, e.g. a script element or an unknown tag, does not count).' +
        (withPublishAt ? ' Status `scheduled` needs `publishAt`, in the future and at most a year ahead.' : ''),
      // `publishAt` only with status "scheduled", and status "scheduled" only with `publishAt` (the rest of the
      // schedule's rules, in the future and at most a year ahead, are in the description).
      ...(withPublishAt
        ? {
            anyOf: [{ not: { properties: { publishAt: {} }, required: ['publishAt'] } }, { properties: { status: { const: 'scheduled' } }, required: ['status'] }],
            if: { properties: { status: { const: 'scheduled' } }, required: ['status'] },
            then: { properties: { publishAt: { type: 'string' } }, required: ['publishAt'] },
          }
        : {}),
    });
}

// ------------------------------------------------------------------------------------------------------------------

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

/** The webhook's example body (the admin panel's webhook docs show it, read from the served description). */
export const EXAMPLE_WEBHOOK_BODY = { ...EXAMPLE_POST_INPUT, status: 'published' };

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

// ------------------------------------------------------------------------------------------------------------------

/**
 * `GET /metrics` (middleware/http-metrics.ts): served before the router, so it has no endpoint definition; described
 * from here when METRICS_TOKEN is set, the only time it is served.
 */
export const METRICS_OPERATION: DescribedOperation = {
  method: 'get',
  path: '/metrics',
  tag: 'Health',
  security: 'metrics-token',
  summary: 'Prometheus metrics (with METRICS_TOKEN)',
  description:
    'The Prometheus text exposition of this instance (requests by route and status, render and job timings, and the process). Never cached; each instance answers for itself.',
  responses: {
    200: {
      description: 'The metrics, in the Prometheus text format (version 0.0.4).',
      body: { schema: z.string(), contentType: 'text/plain', example: '# HELP site_http_requests_total HTTP requests answered, by method, route pattern and status.\n# TYPE site_http_requests_total counter\nsite_http_requests_total{method="GET",route="/api/posts",status="200"} 42\n' },
    },
    401: {
      description: 'No `Authorization: Bearer` header, or another token than METRICS_TOKEN.',
      body: { schema: z.string(), contentType: 'text/plain', example: 'A bearer token is required.\n' },
      headers: { 'WWW-Authenticate': '`Bearer realm="metrics"`.' },
    },
  },
};
