import type { Middleware } from 'koa';
import { matchesIfNoneMatch, strongEtag } from '../lib/etag';

/**
 * Strong ETags for reads answered from memory (API JSON, the RSS feed, the sitemap, robots.txt): the hash of the body
 * as the handler made it, before compression (one validator for every encoding; `Vary: Accept-Encoding` keeps them
 * apart). A request whose If-None-Match names it gets 304 and no body. Streams and files keep their own validators,
 * and answers marked `no-store` (one-time answers, errors) get none.
 */
export function etags(): Middleware {
  return async function etag(ctx, next) {
    await next();
    if ((ctx.method !== 'GET' && ctx.method !== 'HEAD') || ctx.status !== 200 || ctx.response.get('ETag')) return;
    if (/no-store/i.test(ctx.response.get('Cache-Control'))) return;
    const body: unknown = ctx.body;
    let bytes: Buffer | string;
    if (typeof body === 'string' || Buffer.isBuffer(body)) bytes = body;
    else if (body !== null && typeof body === 'object' && typeof (body as { pipe?: unknown }).pipe !== 'function') bytes = JSON.stringify(body);
    else return;
    const etag = strongEtag(bytes);
    ctx.set('ETag', etag);
    if (matchesIfNoneMatch(ctx.get('If-None-Match'), etag)) {
      ctx.status = 304;
      ctx.body = null;
    }
  };
}
