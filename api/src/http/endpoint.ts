import type { ParsedUrlQuery } from 'node:querystring';
import type { Context, Middleware } from 'koa';
import { ZodError, type z } from 'zod';
import type { Config } from '../config';
import { jsonBody } from '../middleware/json-body';
import { multipartFile, type ReceivedFile } from '../middleware/multipart-file';
import { rateLimit, type RateLimitOptions } from '../middleware/rate-limit';
import { requireAdmin } from '../middleware/require-admin';
import { sameOrigin } from '../middleware/same-origin';
import type { Services } from '../services';
import { parseQuery } from './query';
import { defineRoutes, type ApiRouter, type DefinedRouteModule, type RouteContextKey, type RouteDeps, type RouteNeeds } from './route-module';

/*
 * An endpoint is written once, as a declarative object (as Ghost's API endpoints are): its method and path, who may
 * call it, where it must come from, its rate limits, its input as zod schemas, its answers with examples, and the
 * handler. `defineEndpoints` turns a route file's endpoints into its Koa routes (guards, body parsing, limits and
 * input validation included), and ./openapi-document.ts turns the same objects into the API description: there is
 * no second list of routes to keep in step.
 */

export type HttpMethod = 'get' | 'post' | 'put' | 'patch' | 'delete';

/**
 * Who may call an endpoint; enforced here and written as the operation's `security`:
 * - `public`: anyone;
 * - `public-or-admin`: anyone, and an admin session gets more (the handler looks at the session itself);
 * - `admin`: a live admin session cookie, else 401 (state-changing methods also need a same-site Origin, else 403);
 * - `webhook`: a delivery signed with WEBHOOK_SECRET; the webhook service checks the signature over the raw body.
 * - `deploy-token`: `Authorization: Bearer <deploy token>` for the app in the path; the handler has the deploy tokens
 *   service check it (401 without a valid token, 403 for an app the token was not issued for), so a refusal is logged.
 */
export type EndpointAuth = 'public' | 'public-or-admin' | 'admin' | 'webhook' | 'deploy-token';

/** A documented body (request or answer): its schema, and how the description shows it. */
export interface DocumentedBody {
  schema: z.ZodType;
  /** Described once under components.schemas with this name and referenced (large shapes used several times). */
  component?: string;
  example?: unknown;
  /**
   * Several named examples instead of `example` (OpenAPI allows one or the other): an answer that carries one of
   * several error codes shows each code as the server sends it.
   */
  examples?: Record<string, { summary: string; value: unknown }>;
  /** Defaults to application/json; several when the answer is one of them (an image in its own format). */
  contentType?: string | readonly string[];
}

export interface DocumentedResponse {
  description: string;
  body?: DocumentedBody;
  /** Response headers by name, with their description. */
  headers?: Record<string, string>;
}

export interface ParamDefinition {
  description: string;
  example: string;
  /** Validated with it (a ZodError is a 400); without one the parameter is any non-empty segment. */
  schema?: z.ZodType;
}

export interface HeaderDefinition {
  description: string;
  example?: string;
  required?: boolean;
  /** Validated with it; the handler gets the header's value (undefined when absent or empty) otherwise. */
  schema?: z.ZodType;
}

export interface QueryDefinition {
  /** Read with `parseQuery` (a parameter given twice is a 400 naming it). */
  schema: z.ZodObject;
  /** `?q=` counts as no `q` (the public list's links and forms send empty fields). */
  emptyAsAbsent?: boolean;
  /** `false` when the service called validates it (after finding what it names: a 404 before a 400): the handler gets `ctx.query`. */
  parse?: false;
}

/** A JSON body (application/json, and text/plain holding JSON with `acceptTextPlain`), read up to BODY_LIMIT. */
export interface JsonBodyDefinition extends DocumentedBody {
  kind?: 'json';
  /** For `navigator.sendBeacon`, whose string bodies arrive as text/plain. */
  acceptTextPlain?: boolean;
  /**
   * How the body is read before the handler sees it. By default `schema.parse` (a ZodError is the 400 envelope);
   * a function of its own when its messages are better than the schema's union; `false` when the service called
   * validates it (its messages are the spec's, and it applies rules the shape cannot say): the handler gets it as sent.
   */
  parse?: ((body: unknown) => unknown) | false;
}

/** A multipart/form-data body with one file field, streamed to disk (`middleware/multipart-file.ts`). */
export interface MultipartBodyDefinition extends DocumentedBody {
  kind: 'multipart';
  field: string;
  maxBytes: number;
  /** The 413 message. */
  tooLarge: string;
}

/**
 * A body the handler reads itself as a stream (a release's .tar.gz): allowed up to `maxBytes` (Content-Length is
 * checked before a byte is read; the handler bounds a chunked body again while it reads). The handler gets `ctx.req`.
 */
export interface StreamBodyDefinition extends DocumentedBody {
  kind: 'stream';
  maxBytes: number;
}

export type BodyDefinition = JsonBodyDefinition | MultipartBodyDefinition | StreamBodyDefinition;

/** A per-client budget (`middleware/rate-limit.ts`): the same object on two endpoints is one budget for both. */
export type RateLimitRule = Pick<RateLimitOptions, 'windowMs' | 'max' | 'keyPrefix' | 'message' | 'count'> & {
  /** `RateLimitOptions.exempt`, given the module's deps (its `needs`). */
  exempt?: (ctx: Context, deps: never) => Promise<boolean> | boolean;
};

type ParamsInput<P> = { [K in keyof P]: P[K] extends { schema: infer S extends z.ZodType } ? z.output<S> : string };
type HeadersInput<H> = { [K in keyof H]: H[K] extends { schema: infer S extends z.ZodType } ? z.output<S> : string | undefined };
type QueryInput<Q> = Q extends { parse: false } ? ParsedUrlQuery : Q extends { schema: infer S extends z.ZodObject } ? z.output<S> : undefined;
type BodyInput<B> = B extends { kind: 'multipart' }
  ? ReceivedFile
  : B extends { kind: 'stream' }
    ? NodeJS.ReadableStream
    : B extends { parse: false }
    ? unknown
    : B extends { parse: (body: unknown) => infer T }
      ? T
      : B extends { schema: infer S extends z.ZodType }
        ? z.output<S>
        : undefined;

/** What the handler receives, validated: path parameters, query, headers and body. */
export interface EndpointInput<P = unknown, Q = unknown, B = unknown, H = unknown> {
  params: ParamsInput<P>;
  query: QueryInput<Q>;
  body: BodyInput<B>;
  headers: HeadersInput<H>;
}

export interface EndpointDefinition<D, P, Q, B, H> {
  method: HttpMethod;
  /** The Koa path (`/api/posts/:slug`); the description writes it `/api/posts/{slug}`. */
  path: string;
  tag: string;
  summary: string;
  description?: string;
  /** Defaults to `public`. */
  auth?: EndpointAuth;
  /**
   * The CSRF rule of `middleware/same-origin.ts` (Origin, or Referer, must be this site; 403 otherwise): `first`,
   * before anything else (every state-changing admin endpoint has it without saying so), or `after-input`, once the
   * input is valid (a malformed request is told what is wrong before where it came from is checked).
   */
  sameOrigin?: 'first' | 'after-input';
  /** Checked in order, before the body is read. */
  rateLimits?: readonly RateLimitRule[];
  /** Set on every answer of the endpoint (an error answer is `no-store` whatever this says). */
  cacheControl?: string;
  params?: P;
  query?: Q;
  headers?: H;
  body?: B;
  /**
   * Every answer by status. The ones the machinery gives are added when not listed: 401 (admin), 403 (same origin),
   * 413 and 415 (a JSON body), 429 (rate limits), 400 (validated input).
   */
  responses: Record<number, DocumentedResponse>;
  /**
   * Answers the request: what it returns is the body. The status is the one 2xx the endpoint documents, unless the
   * handler sets `ctx.status` (an endpoint with two success statuses).
   */
  handle(input: EndpointInput<P, Q, B, H>, deps: D, ctx: Context): unknown;
}

/** An endpoint as stored and read by the registration and the description (its input types erased). */
export type Endpoint = EndpointDefinition<never, Record<string, ParamDefinition> | undefined, QueryDefinition | undefined, BodyDefinition | undefined, Record<string, HeaderDefinition> | undefined>;

/** Types one endpoint of a route file: its handler's input from its schemas, its deps from the file's `needs`. */
export type EndpointFactory<D> = <
  P extends Record<string, ParamDefinition> | undefined = undefined,
  Q extends QueryDefinition | undefined = undefined,
  B extends BodyDefinition | undefined = undefined,
  H extends Record<string, HeaderDefinition> | undefined = undefined,
>(
  definition: EndpointDefinition<D, P, Q, B, H>,
) => Endpoint;

/** A route file's module: registers its endpoints, and lists them for the description. */
export type EndpointModule = DefinedRouteModule & { readonly endpoints: readonly Endpoint[] };

/** Whether an endpoint checks the request's origin, and when. */
export function originCheck(endpoint: Pick<Endpoint, 'auth' | 'method' | 'sameOrigin'>): 'first' | 'after-input' | undefined {
  if (endpoint.sameOrigin) return endpoint.sameOrigin;
  return endpoint.auth === 'admin' && endpoint.method !== 'get' ? 'first' : undefined;
}

/** The single success status an endpoint documents, if it has exactly one. */
export function successStatus(endpoint: Pick<Endpoint, 'responses'>): number | undefined {
  const ok = Object.keys(endpoint.responses)
    .map(Number)
    .filter((status) => status >= 200 && status < 300);
  return ok.length === 1 ? ok[0] : undefined;
}

/** What the machinery of an endpoint reads from its module's deps: a module must declare these in its `needs`. */
function machineryNeeds(endpoint: Endpoint): { config: Array<keyof Config>; services: Array<keyof Services>; context: RouteContextKey[] } {
  const config: Array<keyof Config> = [];
  const services: Array<keyof Services> = [];
  const context: RouteContextKey[] = [];
  if (originCheck(endpoint)) config.push('publicOrigin');
  if (endpoint.auth === 'admin') services.push('admin');
  if (endpoint.rateLimits?.length) {
    config.push('rateLimitMultiplier');
    context.push('rateLimits');
  }
  if (endpoint.body && endpoint.body.kind !== 'multipart' && endpoint.body.kind !== 'stream') config.push('bodyLimit');
  return { config, services, context };
}

/** Room in a multipart body besides its file: the form's boundaries and its text fields. */
const MULTIPART_OVERHEAD_BYTES = 64 * 1024;

/**
 * The endpoints allowed a body bigger than BODY_LIMIT (`requestBodyLimits`' exceptions, by `METHOD /path`): the
 * multipart uploads, their file's limit plus the form around it.
 */
export function largeBodyLimits(endpoints: readonly Endpoint[]): Record<string, number> {
  return Object.fromEntries(
    endpoints.flatMap((e) =>
      e.body?.kind === 'multipart'
        ? [[`${e.method.toUpperCase()} ${e.path}`, e.body.maxBytes + MULTIPART_OVERHEAD_BYTES]]
        : e.body?.kind === 'stream'
          ? [[`${e.method.toUpperCase()} ${e.path}`, e.body.maxBytes]]
          : [],
    ),
  );
}

/** Endpoints registered on a router, in order (the description of a running app is built from these). */
const registered = new WeakMap<ApiRouter, Endpoint[]>();

/** The endpoints registered on `router`: every route of it that has a definition. */
export function registeredEndpoints(router: ApiRouter): readonly Endpoint[] {
  return registered.get(router) ?? [];
}

/**
 * A route file's endpoints as its route module. `needs` lists what the file uses, as for `defineRoutes` (each
 * handler receives exactly that); it must include what the endpoints' machinery reads (an error at load time says
 * what is missing): `publicOrigin` for an origin check, the `admin` service for a session, `bodyLimit` for a JSON
 * body, `rateLimitMultiplier` and `rateLimits` for a rate limit.
 *
 *     export const postsRoutes = defineEndpoints({ services: ['posts'] }, (endpoint) => [
 *       endpoint({ method: 'get', path: '/api/posts/:slug', params: { slug: … }, responses: { … },
 *                  handle: ({ params }, { services }) => services.posts.getPublished(params.slug) }),
 *     ]);
 */
export function defineEndpoints<C extends keyof Config = never, S extends keyof Services = never, K extends RouteContextKey = never>(
  needs: RouteNeeds<C, S, K>,
  define: (endpoint: EndpointFactory<RouteDeps<C, S, K>>) => readonly Endpoint[],
): EndpointModule {
  const endpoints = define(((definition: unknown) => definition as Endpoint) as EndpointFactory<RouteDeps<C, S, K>>);
  for (const endpoint of endpoints) {
    const machinery = machineryNeeds(endpoint);
    const missing = [
      ...machinery.config.filter((key) => !(needs.config as readonly string[] | undefined)?.includes(key)).map((key) => `config.${key}`),
      ...machinery.services.filter((key) => !(needs.services as readonly string[] | undefined)?.includes(key)).map((key) => `services.${key}`),
      ...machinery.context.filter((key) => !(needs.context as readonly string[] | undefined)?.includes(key)).map((key) => `context.${key}`),
    ];
    if (missing.length) throw new Error(`${endpoint.method.toUpperCase()} ${endpoint.path}: its module must declare ${missing.join(', ')} in its needs`);
  }
  const module = defineRoutes(needs, (router, deps) => {
    // One middleware per rule object: two endpoints that share a rule share its budget.
    const limiters = new Map<RateLimitRule, Middleware>();
    const machineryDeps = deps as unknown as RouteDeps<'publicOrigin' | 'bodyLimit' | 'rateLimitMultiplier', 'admin', 'rateLimits'>;
    const origin = () => sameOrigin({ publicOrigin: machineryDeps.config.publicOrigin });
    for (const endpoint of endpoints) {
      const chain: Middleware[] = [];
      const check = originCheck(endpoint);
      if (check === 'first') chain.push(origin());
      if (endpoint.auth === 'admin') chain.push(requireAdmin({ auth: machineryDeps.services.admin.auth }));
      for (const rule of endpoint.rateLimits ?? []) {
        if (!limiters.has(rule)) {
          const exempt = rule.exempt && ((ctx: Context) => rule.exempt!(ctx, deps as never));
          limiters.set(rule, rateLimit({ ...rule, exempt, store: machineryDeps.rateLimits, multiplier: machineryDeps.config.rateLimitMultiplier }));
        }
        chain.push(limiters.get(rule)!);
      }
      const body = endpoint.body;
      if (body?.kind === 'multipart') chain.push(multipartFile({ field: body.field, maxBytes: body.maxBytes, tooLarge: body.tooLarge }));
      else if (body && body.kind !== 'stream') chain.push(jsonBody({ limit: machineryDeps.config.bodyLimit, acceptTextPlain: body.acceptTextPlain }));
      chain.push(handler(endpoint, deps as never, check === 'after-input' ? origin() : undefined));
      router[endpoint.method](endpoint.path, ...chain);
      registered.set(router, [...registeredEndpoints(router), endpoint]);
    }
  });
  return Object.assign(module, { endpoints });
}

/** The last middleware of an endpoint: reads and validates the input, checks the origin if it comes last, answers. */
function handler(endpoint: Endpoint, deps: never, lateOrigin: Middleware | undefined): Middleware {
  const status = successStatus(endpoint);
  return async function handleEndpoint(ctx) {
    const input = readInput(endpoint, ctx);
    const answer = async () => {
      if (endpoint.cacheControl) ctx.set('Cache-Control', endpoint.cacheControl);
      if (status !== undefined) ctx.status = status;
      const result = await endpoint.handle(input as never, deps, ctx);
      if (result !== undefined) ctx.body = result;
    };
    if (lateOrigin) await lateOrigin(ctx, answer);
    else await answer();
  };
}

/** The request's input, each part validated with its schema (a ZodError or InvalidInputError becomes the 400 envelope). */
function readInput(endpoint: Endpoint, ctx: Context): EndpointInput {
  const params: Record<string, unknown> = {};
  for (const [name, param] of Object.entries(endpoint.params ?? {})) params[name] = param.schema ? param.schema.parse(ctx.params[name]) : ctx.params[name];
  const headers: Record<string, unknown> = {};
  for (const [name, header] of Object.entries(endpoint.headers ?? {})) {
    const value = ctx.get(name) || undefined;
    const parsed = header.schema ? header.schema.safeParse(value) : { success: true as const, data: value };
    // The 400 names the header, as a field's names the field.
    if (!parsed.success) throw new ZodError(parsed.error.issues.map((issue) => ({ ...issue, path: [name, ...issue.path] })));
    headers[name] = parsed.data;
  }
  let query: unknown;
  if (endpoint.query?.parse === false) query = ctx.query;
  else if (endpoint.query) query = parseQuery(endpoint.query.schema, ctx.query, { emptyAsAbsent: endpoint.query.emptyAsAbsent });
  let body: unknown;
  const definition = endpoint.body;
  if (definition?.kind === 'multipart') body = ctx.state.upload as ReceivedFile;
  else if (definition?.kind === 'stream') body = ctx.req;
  else if (definition) {
    const sent: unknown = ctx.request.body;
    if (definition.parse === false) body = sent;
    else if (definition.parse) body = definition.parse(sent);
    else body = definition.schema.parse(sent ?? {});
  }
  return { params, query, headers, body } as EndpointInput;
}
