import type { Context } from 'koa';
import { pickEncoding } from '../lib/compression';
import { matchesIfNoneMatch, strongEtag } from '../lib/etag';
import { bodyOf, DOCUMENT_MAX_AGE_MS, type CachedPage, type RenderCache } from '../site/render/render-cache';

/** A document the API makes from public content: its text, and when what it shows last changed (an HTTP date). */
export interface MadeDocument {
  body: string;
  lastModified?: string;
}

/**
 * Sends a document made from public content (the RSS feed, the sitemaps) the way the render cache sends pages: made
 * once, kept under `key` with `tags` (a post published, changed or taken down drops it on every instance: the same
 * tags as the pages, lib/content-tags.ts), its brotli and gzip bodies made once, a strong ETag and `Last-Modified`, and
 * 304 for a client that has it. Without the cache (RENDER_CACHE_MB=0) it is made on each request, answered the same.
 * Its cost per request is therefore a lookup, however large the stored data: the making happens once per change. It
 * has no clock in it, so unlike a page it does not age out after a minute (which re-made each document, and the
 * sitemap's parts over every published post, once a minute): it is kept until a change drops it (DOCUMENT_MAX_AGE_MS).
 */
export async function sendDocument(
  ctx: Context,
  cache: RenderCache | undefined,
  options: { key: string; tags: readonly string[]; type: string; make: () => Promise<MadeDocument> },
): Promise<void> {
  const page = await cachedOrMade(cache, options);
  ctx.type = options.type;
  ctx.vary('Accept-Encoding');
  ctx.set('ETag', page.etag);
  if (page.lastModified) ctx.set('Last-Modified', page.lastModified);
  if (isFresh(ctx, page)) {
    ctx.status = 304;
    ctx.body = null;
    return;
  }
  ctx.status = 200;
  const encoding = pickEncoding(ctx.get('Accept-Encoding'));
  if (encoding) ctx.set('Content-Encoding', encoding);
  ctx.body = bodyOf(page, encoding);
}

/** RFC 9110 §13.2.2: If-None-Match decides when present; If-Modified-Since only without it. */
function isFresh(ctx: Context, page: CachedPage): boolean {
  const ifNoneMatch = ctx.get('If-None-Match');
  if (ifNoneMatch) return matchesIfNoneMatch(ifNoneMatch, page.etag);
  const since = Date.parse(ctx.get('If-Modified-Since'));
  const modified = page.lastModified ? Date.parse(page.lastModified) : Number.NaN;
  return Number.isFinite(since) && Number.isFinite(modified) && modified <= since;
}

async function cachedOrMade(cache: RenderCache | undefined, options: { key: string; tags: readonly string[]; make: () => Promise<MadeDocument> }): Promise<CachedPage> {
  if (!cache) return uncached(await options.make());
  const lookup = cache.lookup(options.key);
  if (lookup.kind === 'fresh') return lookup.page;
  if (lookup.kind === 'wait') {
    const page = lookup.stale ?? (await lookup.render);
    if (page) return page;
    return uncached(await options.make());
  }
  if (lookup.stale) {
    // Past its age: this request sends the kept one and makes the next in the background (one at a time).
    void options.make().then(
      (made) => lookup.done({ status: 200, html: made.body, tags: options.tags, cacheable: true, lastModified: made.lastModified, maxAgeMs: DOCUMENT_MAX_AGE_MS }),
      () => lookup.done(undefined),
    );
    return lookup.stale;
  }
  try {
    const made = await options.make();
    return lookup.done({ status: 200, html: made.body, tags: options.tags, cacheable: true, lastModified: made.lastModified, maxAgeMs: DOCUMENT_MAX_AGE_MS })!;
  } finally {
    if (!lookup.settled) lookup.done(undefined);
  }
}

function uncached(made: MadeDocument): CachedPage {
  const identity = Buffer.from(made.body);
  return {
    status: 200,
    html: made.body,
    identity,
    encoded: {},
    etag: strongEtag(made.body),
    ...(made.lastModified ? { lastModified: made.lastModified } : {}),
    tags: [],
    storedAt: 0,
    maxAgeMs: 0,
    bytes: identity.length,
  };
}

/**
 * A value made from public content, kept in the render cache as JSON under `key` and `tags` like a document (dropped by
 * the same changes): what several documents are made from, made once (the sitemap's parts).
 */
export async function cachedValue<T>(cache: RenderCache | undefined, options: { key: string; tags: readonly string[]; make: () => Promise<T> }): Promise<T> {
  const page = await cachedOrMade(cache, { ...options, make: async () => ({ body: JSON.stringify(await options.make()) }) });
  return JSON.parse(page.html) as T;
}
