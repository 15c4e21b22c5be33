import { z } from 'zod';
import { ADMIN_MESSAGES, ADMIN_SESSION_COOKIE, ADMIN_SESSION_COOKIE_SECURE } from '@site/contracts/admin';
import {
  WEBHOOK_EVENT_DESCRIPTIONS,
  WEBHOOK_EVENT_TYPES,
  WEBHOOK_HEADERS,
  WEBHOOK_PAYLOAD_EXAMPLES,
  WEBHOOK_PAYLOAD_SCHEMAS,
  WEBHOOK_TEST_EVENT,
  WEBHOOK_TEST_PAYLOAD_EXAMPLE,
  webhookTestPayloadSchema,
} from '@site/contracts/webhooks-out';
import { DEPLOY_MESSAGES } from '@site/contracts/deploys';
import { answersWithEnvelope } from '../middleware/errors';
import { allowedOrigins } from '../middleware/same-origin';
import { SIGNATURE_HEADER, SIGNATURE_TOLERANCE_SECONDS, signWebhookBody } from '../incoming-webhook/incoming-webhook-service';
import { originCheck, type DocumentedBody, type DocumentedResponse, type Endpoint, type EndpointAuth, type HttpMethod, type RateLimitRule } from './endpoint';
import { COMMON_ERRORS, DOCUMENTED_RULES, error, errorCases, errorResponse, EXAMPLE_WEBHOOK_BODY, METRICS_OPERATION, TEXT_RULES_NOTE } from './openapi-parts';

/*
 * The OpenAPI 3.1 description (`GET /api/openapi.json`), generated from the endpoints' definitions (./endpoint.ts) and
 * the zod contracts they validate with (zod's own JSON Schema output, draft 2020-12, which OpenAPI 3.1 uses), plus the
 * outgoing webhooks from their payload schemas (@site/contracts/webhooks-out). Nothing here lists a route.
 */

type JsonObject = Record<string, unknown>;

export interface DocumentOptions {
  /** The site's origin: the description's server, and the Origin a state-changing request must send. */
  publicOrigin: string;
  version: string;
  /** METRICS_TOKEN is set: `GET /metrics` (served before the router, by middleware/http-metrics.ts) is described too. */
  metrics?: boolean;
}

/** One operation as the description shows it: an endpoint with the answers its machinery adds. */
export interface DescribedOperation {
  method: HttpMethod;
  /** OpenAPI path (`/api/posts/{slug}`). */
  path: string;
  tag: string;
  /** An endpoint's auth, or the metrics scraper's bearer token (METRICS_TOKEN). */
  security: EndpointAuth | 'metrics-token';
  summary: string;
  description?: string;
  params?: Record<string, { description: string; example: string; schema?: z.ZodType }>;
  query?: z.ZodType;
  headers?: Array<{ name: string; required: boolean; description: string; example?: string; schema?: z.ZodType | JsonObject }>;
  body?: DocumentedBody;
  responses: Record<number, DocumentedResponse>;
}

/** Koa's `/api/posts/:slug` as OpenAPI writes it, `/api/posts/{slug}`. */
export const openApiPath = (koaPath: string) => koaPath.replace(/:(\w+)/g, '{$1}');

const UNAUTHORIZED = errorResponse('No live admin session (log in with POST /api/admin/login).', error('unauthorized', ADMIN_MESSAGES.sessionRequired));
const FORBIDDEN = errorResponse('A state-changing request whose Origin (or Referer) is not this site (CSRF defence).', error('forbidden', ADMIN_MESSAGES.crossOrigin));
const BAD_SIGNATURE = errorResponse('Missing, malformed, expired or wrong signature.', error('invalid_signature', 'The webhook signature does not match the body.'));
const INVALID_INPUT = errorResponse('A field breaks a rule; `details` names each field and its rule.', error('validation_failed', 'limit: Too big: expected number to be <=100', [{ path: 'limit', message: 'Too big: expected number to be <=100' }]));

/** When a rate limit answers: its budget per client, and which answers count toward it. */
function rateLimitSummary(rule: RateLimitRule): string {
  const minutes = rule.windowMs / 60_000;
  const counted = { all: 'requests', accepted: 'accepted requests', failed: 'failed requests', denied: 'answers 401 or 403' }[rule.count ?? 'all'];
  return `More than ${rule.max} ${counted} from one address within ${minutes === 1 ? 'a minute' : `${minutes} minutes`}`;
}

/** The answers an endpoint's machinery gives (guards, body parsing, limits, validation), unless it lists its own. */
function machineryAnswers(endpoint: Endpoint): Record<number, DocumentedResponse> {
  const answers: Record<number, DocumentedResponse> = {};
  const validated = endpoint.body || endpoint.query || Object.values(endpoint.params ?? {}).some((p) => p.schema) || Object.values(endpoint.headers ?? {}).some((h) => h.schema);
  if (validated) answers[400] = INVALID_INPUT;
  if (endpoint.auth === 'admin') answers[401] = UNAUTHORIZED;
  if (endpoint.auth === 'webhook') answers[401] = BAD_SIGNATURE;
  if (endpoint.auth === 'deploy-token') {
    answers[401] = errorCases('No deploy token (`deploy_token_missing`), or one that is revoked or was never issued (`deploy_token_invalid`). A refused change (deploy, rollback, promotion) is written to the deploy log.', [
      { code: 'deploy_token_missing', message: DEPLOY_MESSAGES.missingToken, summary: 'No `Authorization: Bearer <token>` header' },
      { code: 'deploy_token_invalid', message: DEPLOY_MESSAGES.badToken, summary: 'A token that is revoked or was never issued' },
    ]);
    answers[403] = errorResponse('A deploy token issued for other apps (`token_not_for_app`). A refused change is written to the deploy log, naming the token.', error('token_not_for_app', DEPLOY_MESSAGES.wrongApp('shell')));
  }
  if (originCheck(endpoint)) answers[403] = FORBIDDEN;
  if (endpoint.body && endpoint.body.kind !== 'multipart' && endpoint.body.kind !== 'stream') Object.assign(answers, { 413: COMMON_ERRORS[413], 415: COMMON_ERRORS[415] });
  const limits = endpoint.rateLimits ?? [];
  const limit = limits[0];
  // Several budgets: each one's own message is an example of the same code.
  if (limits.length > 1 && limits.every((l) => l.message))
    answers[429] = errorCases(
      COMMON_ERRORS[429].description,
      limits.map((l) => ({ name: l.keyPrefix, code: 'rate_limited', message: l.message!, summary: rateLimitSummary(l) })),
      COMMON_ERRORS[429].headers,
    );
  else if (limit) answers[429] = limit.message ? errorResponse(COMMON_ERRORS[429].description, error('rate_limited', limit.message), COMMON_ERRORS[429].headers) : COMMON_ERRORS[429];
  return answers;
}

/** The Origin header a state-changing request must carry (browsers send it themselves; other clients must). */
function originHeader(publicOrigin: string): NonNullable<DescribedOperation['headers']>[number] {
  return {
    name: 'Origin',
    required: true,
    description:
      "This site's origin. Browsers send it on every POST, PUT, PATCH and DELETE; any other client must send it (or a `Referer` on this site): a request from elsewhere, or naming no origin, is refused with 403 (CSRF defence).",
    example: publicOrigin,
    schema: { type: 'string', enum: [...allowedOrigins(publicOrigin)] },
  };
}

/** An endpoint's operation in the description. */
export function describeEndpoint(endpoint: Endpoint, options: Pick<DocumentOptions, 'publicOrigin'>): DescribedOperation {
  const headers: NonNullable<DescribedOperation['headers']> = Object.entries(endpoint.headers ?? {}).map(([name, h]) => ({
    name,
    required: h.required ?? false,
    description: h.description,
    example: h.example,
    schema: h.schema,
  }));
  if (originCheck(endpoint)) headers.push(originHeader(options.publicOrigin));
  const body = endpoint.body;
  return {
    method: endpoint.method,
    path: openApiPath(endpoint.path),
    tag: endpoint.tag,
    security: endpoint.auth ?? 'public',
    summary: endpoint.summary,
    ...(endpoint.description ? { description: endpoint.description } : {}),
    ...(endpoint.params ? { params: endpoint.params } : {}),
    ...(endpoint.query ? { query: endpoint.query.schema } : {}),
    ...(headers.length ? { headers } : {}),
    ...(body ? { body: { schema: body.schema, component: body.component, example: body.example, contentType: body.kind === 'multipart' ? 'multipart/form-data' : body.contentType } } : {}),
    responses: { ...machineryAnswers(endpoint), ...endpoint.responses },
  };
}

// ------------------------------------------------------------------------------------------------------------------

/**
 * The requests the site sends to the owner's endpoints (outgoing webhooks, registered under Integrations in the admin
 * panel): OpenAPI 3.1's `webhooks`. Each payload's example is parsed with its schema by a test.
 */
export const OUTGOING_WEBHOOKS: ReadonlyArray<{ type: string; description: string; body: DocumentedBody & { example: { id: string } } }> = [
  ...WEBHOOK_EVENT_TYPES.map((type) => ({
    type,
    description: WEBHOOK_EVENT_DESCRIPTIONS[type],
    body: { schema: WEBHOOK_PAYLOAD_SCHEMAS[type], example: WEBHOOK_PAYLOAD_EXAMPLES[type] },
  })),
  {
    type: WEBHOOK_TEST_EVENT,
    description: "The Integrations screen's 'Send test event' (POST /api/admin/webhooks/{id}/test): sent to that one endpoint only; no endpoint subscribes to it.",
    body: { schema: webhookTestPayloadSchema, example: WEBHOOK_TEST_PAYLOAD_EXAMPLE },
  },
];

/** The W3C trace context header of every delivery attempt (version 00, lowercase hex). */
export const TRACEPARENT_PATTERN = '^00-[0-9a-f]{32}-[0-9a-f]{16}-[0-9a-f]{2}$';

const OUTGOING_WEBHOOK_NOTE = [
  `Sent as POST with a JSON body to each enabled endpoint subscribed to the event. \`${WEBHOOK_HEADERS.signature}: t=<unix seconds>,v1=<hex>\``,
  "where v1 is HMAC-SHA256(the endpoint's own signing secret, `<t>.<raw body>`) (see `outgoingWebhookSignature`; the scheme the site's own /api/webhook verifies; reject",
  `timestamps more than 5 minutes away). \`${WEBHOOK_HEADERS.event}\` names the event; \`${WEBHOOK_HEADERS.id}\` is the event id, the same on`,
  'every retry: de-duplicate on it. Any 2xx is a delivery. Network errors, timeouts (connect 5 s, total 10 s), 5xx and 429 are retried',
  'with exponential backoff and jitter for 24 hours (Retry-After honoured); other 4xx are not retried. Redirects are not followed.',
  'Each attempt carries a W3C `traceparent` (`00-<trace id>-<span id>-<flags>`): the trace of the request that caused the event',
  '(a visitor\'s contact message: the same trace id as its owner mail), with a span id of that attempt\'s own.',
].join(' ');

const ZOD_CHECK_FORMATS = new Set(['starts_with', 'ends_with', 'includes']);

/**
 * Drops zod's check names from `format`; adds the rules zod cannot write (DOCUMENTED_RULES); and writes a record keyed
 * by an enum (`z.record(z.enum([...]), v)`, every key required) as the equivalent object with those properties: zod
 * writes it with `propertyNames` and `required`, which tools read as required properties left undefined.
 */
function normalize({ zodSchema, jsonSchema: s }: { zodSchema: unknown; jsonSchema: JsonObject }) {
  // zod names its string checks (`.startsWith()`) as formats no validator knows; its `pattern` already says the rule.
  if (typeof s.format === 'string' && ZOD_CHECK_FORMATS.has(s.format)) delete s.format;
  // zod writes a regex's source without its flags: /…/i would be described stricter than the server reads it.
  const checks = (zodSchema as { _zod?: { def?: { checks?: Array<{ _zod: { def: { pattern?: unknown } } }> } } })._zod?.def?.checks ?? [];
  for (const pattern of checks.map((c) => c._zod.def.pattern)) {
    if (pattern instanceof RegExp && /[ims]/.test(pattern.flags)) throw new Error(`The pattern /${pattern.source}/${pattern.flags} cannot be described (JSON Schema patterns have no flags): write it without them`);
  }
  const rules = DOCUMENTED_RULES.get(zodSchema as z.ZodType);
  if (rules) Object.assign(s, rules);
  const keys = (s.propertyNames as { enum?: unknown[] } | undefined)?.enum;
  if (s.type !== 'object' || !Array.isArray(keys) || typeof s.additionalProperties !== 'object' || s.properties) return;
  s.properties = Object.fromEntries(keys.map((key) => [String(key), s.additionalProperties]));
  s.additionalProperties = false;
  delete s.propertyNames;
}

function jsonSchema(schema: z.ZodType, io: 'input' | 'output'): JsonObject {
  // Transforms and refinements are not representable: the input side documents what a caller sends.
  const out = z.toJSONSchema(schema, { io, unrepresentable: 'any', target: 'draft-2020-12', override: normalize }) as JsonObject;
  delete out.$schema;
  return out;
}

function content(body: DocumentedBody, io: 'input' | 'output', components: Record<string, JsonObject>): JsonObject {
  let schema = jsonSchema(body.schema, io);
  if (body.component) {
    components[body.component] ??= schema;
    schema = { $ref: `#/components/schemas/${body.component}` };
  }
  const media: JsonObject = { schema };
  if (body.examples) media.examples = body.examples;
  else if (body.example !== undefined) media.example = body.example;
  const types = body.contentType === undefined ? ['application/json'] : [body.contentType].flat();
  return Object.fromEntries(types.map((type) => [type, media]));
}

function queryParameters(schema: z.ZodType): JsonObject[] {
  const object = jsonSchema(schema, 'input') as { properties?: Record<string, JsonObject>; required?: string[] };
  return Object.entries(object.properties ?? {}).map(([name, property]) => ({
    name,
    in: 'query',
    required: object.required?.includes(name) ?? false,
    schema: property,
  }));
}

/** The example secret and body of the signature example: a real signature, so a client can check its own code with it. */
export const EXAMPLE_SIGNING_SECRET = 'example-webhook-secret';
const EXAMPLE_SIGNATURE_TIME = 1767225600;
/** `t=…,v1=…` of the webhook example body (as JSON.stringify writes it) with EXAMPLE_SIGNING_SECRET. */
export const EXAMPLE_WEBHOOK_SIGNATURE = signWebhookBody(EXAMPLE_SIGNING_SECRET, JSON.stringify(EXAMPLE_WEBHOOK_BODY), EXAMPLE_SIGNATURE_TIME);

function securitySchemes(publicOrigin: string, metrics: boolean) {
  // The cookie is named after the transport the server sees (middleware/require-admin.ts): `__Host-…` over https.
  const https = new URL(publicOrigin).protocol === 'https:';
  return {
    adminSession: {
      type: 'apiKey',
      in: 'cookie',
      name: https ? ADMIN_SESSION_COOKIE_SECURE : ADMIN_SESSION_COOKIE,
      description: [
        `The admin panel's session, set by POST /api/admin/login (HttpOnly, SameSite=Strict, Path=/): named \`${ADMIN_SESSION_COOKIE_SECURE}\` (and Secure) when the server is reached over https (directly, or through a proxy it trusts with TRUST_PROXY), \`${ADMIN_SESSION_COOKIE}\` over plain http; this server is ${https ? 'https' : 'plain http'}.`,
        'It ends after 24 hours of age or of inactivity.',
        'State-changing admin requests (POST, PUT, PATCH, DELETE) must also come from this site: their `Origin` header (or, without one, the `Referer`) must be the origin of the server above, else 403.',
      ].join(' '),
    },
    deployToken: {
      type: 'http',
      scheme: 'bearer',
      description:
        'A deploy token (Authorization: Bearer dpl_…), created by the admin (POST /api/admin/deploy-tokens or the Deploys screen) for the apps it names. Shown once, stored hashed. A token for another app is answered 403; failures are rate limited and written to the deploy log.',
    },
    webhookSignature: {
      type: 'apiKey',
      in: 'header',
      name: SIGNATURE_HEADER,
      description: [
        `\`${SIGNATURE_HEADER}: t=<unix seconds>,v1=<hex HMAC-SHA256>\`, where v1 = HMAC-SHA256(WEBHOOK_SECRET, \`<t>.<raw body>\`) over the exact bytes sent.`,
        `A \`t\` more than ${SIGNATURE_TOLERANCE_SECONDS} seconds from the server clock is refused; several \`v1\` values may be sent (secret rotation).`,
        `Example: the body \`${JSON.stringify(EXAMPLE_WEBHOOK_BODY)}\` signed at t=${EXAMPLE_SIGNATURE_TIME} with the secret \`${EXAMPLE_SIGNING_SECRET}\` gives \`${EXAMPLE_WEBHOOK_SIGNATURE}\`.`,
      ].join(' '),
    },
    outgoingWebhookSignature: {
      type: 'apiKey',
      in: 'header',
      name: WEBHOOK_HEADERS.signature,
      description: [
        `What the site sends with each outgoing webhook delivery: \`${WEBHOOK_HEADERS.signature}: t=<unix seconds>,v1=<hex HMAC-SHA256>\`, where v1 = HMAC-SHA256(the endpoint's signing secret, \`<t>.<raw body>\`).`,
        "Each endpoint has its own secret, shown once when the endpoint is created (POST /api/admin/webhooks answers `secret`) or its secret regenerated (PATCH with `regenerateSecret: true`).",
        'It is not WEBHOOK_SECRET, which signs the requests sent to this site (`webhookSignature`).',
      ].join(' '),
    },
    ...(metrics
      ? {
          metricsToken: {
            type: 'http',
            scheme: 'bearer',
            description: "`Authorization: Bearer <METRICS_TOKEN>`: the scraper's token, set in the server's environment (compared in constant time). Without METRICS_TOKEN, /metrics is not served.",
          },
        }
      : {}),
  };
}

const SECURITY: Record<DescribedOperation['security'], JsonObject[]> = {
  public: [],
  // Anyone; an admin session adds details (an empty requirement first: no credentials needed).
  'public-or-admin': [{}, { adminSession: [] }],
  admin: [{ adminSession: [] }],
  webhook: [{ webhookSignature: [] }],
  'deploy-token': [{ deployToken: [] }],
  'metrics-token': [{ metricsToken: [] }],
};

const TAG_DESCRIPTIONS: Record<string, string> = {
  Health: 'Liveness, readiness, versions, metrics, and this document (as JSON, and as a readable page at /api/docs).',
  Contact: 'The contact form.',
  Analytics: 'First-party tracking events.',
  Blog: 'Published posts, categories, feeds, the sitemap and media files.',
  Webhook: 'Posts created by a signed workflow (n8n).',
  Analysis: 'The free business and website scorecards.',
  Releases: 'Deploys and rollbacks of the shell and the remotes by a team\'s CI, with a deploy token.',
  Admin: 'The admin panel: session, posts, contact messages, media, monitoring and outgoing webhooks (the session cookie).',
};

function parameterSchema(schema: z.ZodType | JsonObject | undefined): JsonObject {
  if (schema === undefined) return { type: 'string' };
  return schema instanceof z.ZodType ? jsonSchema(schema, 'input') : schema;
}

/**
 * An error answer of a path outside /api that is not a JSON document (a feed, a sitemap, /metrics): the server sends the
 * envelope's message as text/plain (middleware/errors.ts), so that is what is described, the message as its example.
 */
function plainTextError(body: DocumentedBody): JsonObject {
  const message = (value: unknown) => (value as { error?: { message?: string } } | undefined)?.error?.message ?? value;
  const media: JsonObject = { schema: { type: 'string' } };
  if (body.examples) media.examples = Object.fromEntries(Object.entries(body.examples).map(([name, e]) => [name, { summary: e.summary, value: message(e.value) }]));
  else if (body.example !== undefined) media.example = message(body.example);
  return { 'text/plain': media };
}

/** The OpenAPI 3.1 document of these operations, for a site at `publicOrigin`. */
export function openApiDocument(operations: readonly DescribedOperation[], options: DocumentOptions): JsonObject {
  const paths: Record<string, JsonObject> = {};
  const components: Record<string, JsonObject> = {};
  for (const op of operations) {
    const parameters: JsonObject[] = [
      ...Object.entries(op.params ?? {}).map(([name, p]) => ({
        name,
        in: 'path',
        required: true,
        description: p.description,
        schema: p.schema ? jsonSchema(p.schema, 'input') : { type: 'string', minLength: 1 },
        example: p.example,
      })),
      ...(op.query ? queryParameters(op.query) : []),
      ...(op.headers ?? []).map((h) => ({
        name: h.name,
        in: 'header',
        required: h.required,
        description: h.description,
        schema: parameterSchema(h.schema),
        ...(h.example === undefined ? {} : { example: h.example }),
      })),
    ];
    const responses: Record<string, JsonObject> = {};
    for (const [status, r] of Object.entries(op.responses)) {
      responses[status] = {
        description: r.description,
        ...(r.body ? { content: Number(status) >= 400 && !answersWithEnvelope(op.path) ? plainTextError(r.body) : content(r.body, 'output', components) } : {}),
        ...(r.headers ? { headers: Object.fromEntries(Object.entries(r.headers).map(([h, d]) => [h, { description: d, schema: { type: 'string' } }])) } : {}),
      };
    }
    // The text rules are a JSON body's (not a file's or an archive's).
    const jsonBody = op.body && [op.body.contentType ?? 'application/json'].flat().includes('application/json');
    const description = [op.description, jsonBody ? TEXT_RULES_NOTE : undefined].filter(Boolean).join(' ');
    paths[op.path] = {
      ...paths[op.path],
      [op.method]: {
        operationId: `${op.method}${op.path.replace(/[^A-Z0-9]+(\w?)/gi, (_, c: string) => c.toUpperCase())}`,
        tags: [op.tag],
        summary: op.summary,
        ...(description ? { description } : {}),
        security: SECURITY[op.security],
        ...(parameters.length ? { parameters } : {}),
        ...(op.body ? { requestBody: { required: true, content: content(op.body, 'input', components) } } : {}),
        responses,
      },
    };
  }
  return {
    openapi: '3.1.0',
    jsonSchemaDialect: 'https://json-schema.org/draft/2020-12/schema',
    info: {
      title: 'Tri-Valley AI Automation — API',
      version: options.version,
      description:
        'Every failure is the JSON envelope `{ "error": { "code", "message", "details"? } }`. Admin endpoints (`/api/admin/*`) need the session cookie of POST /api/admin/login (`adminSession`); the n8n webhook needs a signature (`webhookSignature`). State-changing admin requests, the login and tracking events must send this site as their `Origin`.',
      license: { name: 'Proprietary', identifier: 'LicenseRef-Proprietary' },
    },
    servers: [{ url: options.publicOrigin }],
    tags: [...new Set(operations.map((op) => op.tag))].map((name) => ({ name, description: TAG_DESCRIPTIONS[name] ?? name })),
    paths,
    webhooks: Object.fromEntries(
      OUTGOING_WEBHOOKS.map((hook) => [
        hook.type,
        {
          post: {
            operationId: `webhook${hook.type.replace(/(^|\.)(\w)/g, (_, _dot: string, c: string) => c.toUpperCase())}`,
            summary: hook.description,
            description: OUTGOING_WEBHOOK_NOTE,
            // The receiver checks the signature; the site sends it, so the receiver's security is the signature.
            security: [{ outgoingWebhookSignature: [] }],
            parameters: [
              { name: WEBHOOK_HEADERS.event, in: 'header', required: true, schema: { type: 'string', const: hook.type } },
              { name: WEBHOOK_HEADERS.id, in: 'header', required: true, schema: { type: 'string' }, example: hook.body.example.id },
              {
                name: 'traceparent',
                in: 'header',
                required: true,
                description: "W3C trace context: the trace of the request that caused the event, with a span id of this attempt's own.",
                schema: { type: 'string', pattern: TRACEPARENT_PATTERN },
                example: '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01',
              },
            ],
            requestBody: { required: true, content: content(hook.body, 'output', components) },
            responses: {
              '2XX': { description: 'Delivered.' },
              '400': { description: 'Refused by the receiver: not retried (any 4xx but 429).' },
              '429': { description: 'Retried after Retry-After (or with backoff).' },
              '5XX': { description: 'Retried with backoff for 24 hours.' },
            },
          },
        },
      ]),
    ),
    components: { schemas: components, securitySchemes: securitySchemes(options.publicOrigin, options.metrics ?? false) },
  };
}

/** Every operation of these endpoints, as described. */
export function describedOperations(endpoints: readonly Endpoint[], options: Pick<DocumentOptions, 'publicOrigin'>): DescribedOperation[] {
  return endpoints.map((endpoint) => describeEndpoint(endpoint, options));
}

/** The description of these endpoints (a running app's, or every route file's). */
export function apiDescription(endpoints: readonly Endpoint[], options: DocumentOptions): JsonObject {
  return openApiDocument([...describedOperations(endpoints, options), ...(options.metrics ? [METRICS_OPERATION] : [])], options);
}
