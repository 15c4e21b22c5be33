import { bodyParser } from '@koa/bodyparser';
import type { Context, Next } from 'koa';

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

/**
 * Per-route JSON body parsing. A request with a body of any other type answers 415; malformed JSON
 * answers 400; an oversized body 413. The parsed value is in `ctx.request.body`
 * (the raw text in `ctx.request.rawBody`, for signature checks).
 */
export function jsonBody(options: JsonBodyOptions) {
  const accepted = options.acceptTextPlain ? [...JSON_TYPES, 'text/plain'] : JSON_TYPES;
  const parse = bodyParser({
    enableTypes: ['json'],
    jsonLimit: options.limit,
    // Anything that passed the type check below is read as JSON (incl. any +json and text/plain).
    detectJSON: (ctx) => Boolean(ctx.request.is(accepted)),
  });

  return async function parseJsonBody(ctx: Context, next: Next) {
    const type = ctx.request.is(accepted);
    if (type === false) {
      // An HTTP-level failure (not a domain one): koa's http error, mapped to 'unsupported_media_type' by errors.ts.
      ctx.throw(415, `Send the body as application/json${options.acceptTextPlain ? ' (or text/plain holding JSON)' : ''}.`);
    }
    // null: the request has no body at all; the route's schema will say what is missing.
    if (type === null) return next();
    return parse(ctx, next);
  };
}
