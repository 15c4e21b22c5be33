import { bodyParser } from '@koa/bodyparser';
import type { Context, Next } from 'koa';
import { InvalidInputError } from '../lib/domain-errors';

export interface JsonBodyOptions {
  /** Largest body in bytes (BODY_LIMIT); bigger answers 413. */
  limit: number;
  /**
   * Also read `text/plain` as JSON. Only for endpoints fed by `navigator.sendBeacon`, whose
   * string payloads arrive as text/plain.
   */
  acceptTextPlain?: boolean;
}

const JSON_TYPES = ['application/json', '+json'];
/** Content-Encoding values the parser can undo (what inflation supports). */
const ENCODINGS = new Set(['identity', 'gzip', 'deflate', 'br']);
/** Deepest nesting a body may have: our contracts need 3 levels; 32 leaves room and refuses `[[[[…` bombs. */
export const MAX_JSON_DEPTH = 32;

export const BODY_MESSAGES = {
  unsupportedEncoding: 'Send the body uncompressed or with Content-Encoding gzip, deflate or br.',
  invalidEncoding:
    'The request body could not be decompressed: it is not valid data for the Content-Encoding header sent with it. Send it uncompressed, or compressed as that header says.',
  tooDeep: `The JSON body is nested too deeply (more than ${MAX_JSON_DEPTH} levels).`,
  idle: 'The request body arrived too slowly. Send it in one go and try again.',
} as const;

/** True when the JSON text nests objects/arrays deeper than `max` (a linear scan that skips strings). */
export function jsonDepthExceeds(text: string, max = MAX_JSON_DEPTH): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 92) i++; // backslash: skip the escaped character
      else if (c === 34) inString = false;
    } else if (c === 34) inString = true;
    else if (c === 123 || c === 91) {
      if (++depth > max) return true;
    } else if (c === 125 || c === 93) depth--;
  }
  return false;
}

const tooDeep = () => new InvalidInputError(BODY_MESSAGES.tooDeep, { code: 'invalid_json' });

/** What a failed read or parse becomes: the client's fault is a 4xx, never a 500. */
function bodyError(err: unknown, encoding: string): unknown {
  const e = (typeof err === 'object' && err !== null ? err : {}) as { status?: number; body?: unknown };
  if (e.status === 415) return Object.assign(new Error(BODY_MESSAGES.unsupportedEncoding), { status: 415, expose: true });
  if (typeof e.body === 'string' && jsonDepthExceeds(e.body)) return tooDeep();
  // Only decompression fails without a status (zlib/brotli stream errors): corrupt data, not a server fault.
  if (e.status === undefined && encoding !== 'identity') {
    return new InvalidInputError(BODY_MESSAGES.invalidEncoding, { code: 'invalid_content_encoding' });
  }
  return err;
}

/**
 * Per-route JSON body parsing. A request with a body of any other type answers 415; malformed, corrupt-compressed or
 * too deeply nested JSON answers 400; an oversized body 413. The parsed value is in `ctx.request.body`
 * (the raw text in `ctx.request.rawBody`, for signature checks).
 */
export function jsonBody(options: JsonBodyOptions) {
  const accepted = options.acceptTextPlain ? [...JSON_TYPES, 'text/plain'] : JSON_TYPES;
  let encodingOf = (_ctx: Context) => 'identity';
  const parse = bodyParser({
    enableTypes: ['json'],
    jsonLimit: options.limit,
    // Anything that passed the type check below is read as JSON (incl. any +json and text/plain).
    detectJSON: (ctx) => Boolean(ctx.request.is(accepted)),
    onError: (err, ctx) => {
      throw bodyError(err, encodingOf(ctx));
    },
  });
  encodingOf = (ctx) => (ctx.get('Content-Encoding') || 'identity').trim().toLowerCase();

  return async function parseJsonBody(ctx: Context, next: Next) {
    const type = ctx.request.is(accepted);
    if (type === false) {
      // An HTTP-level failure (not a domain one): koa's http error, mapped to 'unsupported_media_type' by errors.ts.
      ctx.throw(415, `Send the body as application/json${options.acceptTextPlain ? ' (or text/plain holding JSON)' : ''}.`);
    }
    // null: the request has no body at all; the route's schema will say what is missing.
    if (type === null) return next();
    if (!ENCODINGS.has(encodingOf(ctx))) ctx.throw(415, BODY_MESSAGES.unsupportedEncoding);
    return parse(ctx, async () => {
      const raw = (ctx.request as { rawBody?: unknown }).rawBody;
      if (typeof raw === 'string' && jsonDepthExceeds(raw)) throw tooDeep();
      await next();
    });
  };
}

/**
 * For every request, before any route: a body whose Content-Length is over `limit` is refused with 413 before a byte
 * of it is read (and the connection closed, so Node does not drain it); a body that stops arriving for `idleTimeoutMs`
 * while it is being read is cut with 408. (The whole request is bounded by the server's requestTimeout.)
 */
export function requestBodyLimits(options: {
  limit: number;
  idleTimeoutMs: number;
  /**
   * The few endpoints allowed a bigger body, by `METHOD /path` (`:name` matches a segment: the media upload, a
   * release's archive); each enforces its own limit
   * again while it reads (a chunked body has no Content-Length).
   */
  exceptions?: Readonly<Record<string, number>>;
}) {
  // `METHOD /path/:param`: a parameter matches one path segment.
  const exceptions = Object.entries(options.exceptions ?? {}).map(([route, limit]) => {
    const [method, pattern] = route.split(' ') as [string, string];
    const source = pattern.split('/').map((part) => (part.startsWith(':') ? '[^/]+' : part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))).join('/');
    return { method, path: new RegExp(`^${source}$`), limit };
  });
  const limitOf = (method: string, requestPath: string) => exceptions.find((e) => e.method === method && e.path.test(requestPath))?.limit ?? options.limit;
  return async function limitRequestBody(ctx: Context, next: Next) {
    const declared = Number(ctx.get('Content-Length') || 0);
    const limit = limitOf(ctx.method, ctx.path);
    if (declared > limit) {
      ctx.set('Connection', 'close');
      ctx.throw(413, 'The request body is larger than this endpoint accepts.');
    }
    if (!declared && !ctx.get('Transfer-Encoding')) return next();

    const req = ctx.req;
    // A compressed body is read through a decompressor piped from the request; a pipe does not pass on the request's
    // end, so the reader would wait forever for a body that stalls or whose client left. Keep the decompressors to fail them.
    const decompressors: Array<{ destroy(error?: Error): unknown }> = [];
    const pipe = req.pipe;
    req.pipe = function pipeAndRemember<T extends NodeJS.WritableStream>(this: typeof req, destination: T, options?: { end?: boolean }): T {
      decompressors.push(destination as unknown as { destroy(error?: Error): unknown });
      return pipe.call(this, destination, options) as T;
    };
    const failDecompressors = (error: Error) => {
      for (const d of decompressors.splice(0)) d.destroy(error);
    };
    req.once('close', () => {
      if (!req.complete) failDecompressors(Object.assign(new Error('The connection closed before the whole body arrived.'), { status: 400, expose: true }));
    });
    const onIdle = () => {
      if (req.complete) return;
      ctx.set('Connection', 'close');
      const idle = Object.assign(new Error(BODY_MESSAGES.idle), { status: 408, expose: true });
      if (decompressors.length > 0) failDecompressors(idle);
      // The identity-body reader (raw-body) listens for 'error' on the request: it stops and rejects with a 408.
      else if (req.readableFlowing && req.listenerCount('error') > 0) req.emit('error', idle);
      // Nobody is reading: the handler did not want the body; the server's requestTimeout still bounds it.
    };
    // Once the body is in, a slow handler (an analysis) must not trip the socket's inactivity timer.
    const disarm = () => {
      if (req.socket && !req.socket.destroyed) req.socket.setTimeout(0);
    };
    req.on('timeout', onIdle);
    req.once('end', disarm);
    req.setTimeout(options.idleTimeoutMs);
    try {
      await next();
    } finally {
      req.off('timeout', onIdle);
      req.off('end', disarm);
      // Back to no socket inactivity timeout (the server sets its own keep-alive timer after the answer).
      disarm();
    }
  };
}
