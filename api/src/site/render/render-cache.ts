/*
 * The render cache: the finished HTML of public pages, with its brotli and gzip bodies and a strong ETag, so that a
 * page is rendered once and then sent as bytes until something it was made from changes.
 *
 * What a page is made from (its key, renderCacheKey in render-page.ts, and its tags; RENDER_INPUTS there lists every
 * input of a render, and render-inputs.test.ts fails on one that is not listed):
 *   - the path (a request with a query string is never kept), and the method-independent answer (HEAD reads the
 *     same entry);
 *   - the public origin (canonical URLs, JSON-LD);
 *   - the shell's document template (index.html) and the shell's server entry;
 *   - every remote's served release (the remotes map is inlined in every page; the owner's server module renders
 *     the body): the snapshot's map, and each served remote's version, folder and module;
 *   - the route's data: post pages by slug, lists by category or the blog index, analysis reports by id. Those are
 *     tags: a post published, changed, unpublished or deleted drops its page, the index and its category (old and new),
 *     nothing else (invalidate()).
 * Not in the key, on purpose: a post's view count (refreshed in the browser), the clock (dates are the data's own;
 * an entry is fresh for `maxAgeMs` at most, then re-rendered).
 *
 * A miss is rendered once however many ask at once (the others wait for that render: flights); an entry past its
 * age is still sent while one request renders it again, up to `staleMs`. Memory is bounded: least recently used
 * entries go first once the bytes exceed `maxBytes`. A render that started before an invalidation of one of its tags
 * is not stored (it may hold the old content).
 */
import { compress, type Encoding } from '../../lib/compression';
import { strongEtag } from '../../lib/etag';

export interface CachedPage {
  status: number;
  /** The whole document. */
  html: string;
  identity: Buffer;
  /** Its brotli and gzip bodies, each made on first need and then sent as they are to every visitor (bodyOf). */
  encoded: { br?: Buffer; gzip?: Buffer };
  /** Strong validator of the document (the same for every encoding; `Vary: Accept-Encoding` tells them apart). */
  etag: string;
  /** When what it shows last changed (an HTTP date), for documents that say so (`Last-Modified`: the feed). */
  lastModified?: string;
  /** What the page was made from besides its key: the data tags, `remote:<owner>` (CDN surrogate keys). */
  tags: readonly string[];
  storedAt: number;
  /** Fresh for this long, then sent while re-rendered (404s: a short time). */
  maxAgeMs: number;
  bytes: number;
}

/** The body of a kept page in an encoding: compressed once, on the first visitor who asks for it. */
export function bodyOf(page: CachedPage, encoding: Encoding | null): Buffer {
  if (!encoding) return page.identity;
  let body = page.encoded[encoding];
  if (!body) {
    body = page.encoded[encoding] = compress(page.identity, encoding);
  }
  return body;
}

export interface RenderCacheStats {
  hits: number;
  staleHits: number;
  misses: number;
  /** Requests that waited for another request's render of the same page instead of rendering it again. */
  coalesced: number;
  entries: number;
  bytes: number;
  maxBytes: number;
  /** hits / (hits + misses), stale hits counted as hits; null before any request. */
  hitRatio: number | null;
}

export type Lookup =
  | { kind: 'fresh'; page: CachedPage }
  /** Another request renders it: wait for that (and send what it made), or send the stale entry meanwhile. */
  | { kind: 'wait'; stale: CachedPage | undefined; render: Promise<CachedPage | undefined> }
  /** Render it: `done` stores the result (or not) and hands it to whoever waits. */
  | {
      kind: 'render';
      stale: CachedPage | undefined;
      /**
       * The entry just dropped for being past its stale time, if any: while the database is away its page is sent (and
       * kept again) rather than nothing (render-page.ts).
       */
      expired?: CachedPage;
      /** Stores the result (when cacheable and nothing it was made from changed meanwhile) and hands it to the waiting. */
      done: (
        result: { status: number; html: string; tags: readonly string[]; cacheable: boolean; lastModified?: string; maxAgeMs?: number } | undefined,
      ) => CachedPage | undefined;
      /** Whether done() was called. */
      readonly settled: boolean;
    };

export interface RenderCache {
  lookup(key: string, now?: number): Lookup;
  /** Drops every entry carrying one of `tags`, and keeps renders already running for them from being stored. */
  invalidate(tags: readonly string[]): number;
  clear(): void;
  stats(): RenderCacheStats;
}

export const DEFAULT_RENDER_CACHE_BYTES = 64 * 1024 * 1024;
/** A page is fresh for a minute; then one request re-renders it while the others get the old one, for 10 minutes. */
export const PAGE_MAX_AGE_MS = 60_000;
export const PAGE_STALE_MS = 10 * 60_000;
/**
 * Documents made from the database alone (the feed, the sitemaps: http/cached-document.ts) have no clock in them and
 * every change of what they show drops them by their tags, so they are kept until then: a request is a lookup at
 * any number of posts. The hour only bounds how long an instance that missed another's change notice (PostgreSQL's
 * NOTIFY failing; a reconnect clears the cache) keeps one.
 */
export const DOCUMENT_MAX_AGE_MS = 60 * 60_000;
/** A not-found page may be published any moment: kept briefly. */
export const NOT_FOUND_MAX_AGE_MS = 10_000;


function makeEntry(status: number, html: string, tags: readonly string[], now: number, lastModified?: string, maxAgeMs?: number): CachedPage {
  const identity = Buffer.from(html);
  return {
    status,
    html,
    identity,
    encoded: {},
    etag: strongEtag(html),
    ...(lastModified ? { lastModified } : {}),
    tags,
    storedAt: now,
    maxAgeMs: maxAgeMs ?? (status === 404 ? NOT_FOUND_MAX_AGE_MS : PAGE_MAX_AGE_MS),
    // Counted whole from the start: the bytes, the string (UTF-16 in V8: up to twice its length) and room for the
    // brotli and gzip bodies made later (a page compresses to well under a third of its size each).
    bytes: Math.ceil(identity.length * 3.7) + 200,
  };
}

export function createRenderCache(options: { maxBytes?: number; staleMs?: number; clock?: () => number } = {}): RenderCache {
  const maxBytes = options.maxBytes ?? DEFAULT_RENDER_CACHE_BYTES;
  const staleMs = options.staleMs ?? PAGE_STALE_MS;
  const clock = options.clock ?? Date.now;
  // A Map keeps insertion order: re-inserting on use makes its first key the least recently used.
  const entries = new Map<string, CachedPage>();
  const flights = new Map<string, Promise<CachedPage | undefined>>();
  /** When each tag was last invalidated (a counter, not a time: renders compare their start with it). */
  const invalidatedAt = new Map<string, number>();
  let generation = 0;
  let bytes = 0;
  const counts = { hits: 0, staleHits: 0, misses: 0, coalesced: 0 };

  /** Bytes of kept 404s: at most an eighth of the whole, so made-up addresses cannot push real pages out. */
  let notFoundBytes = 0;
  const drop = (key: string) => {
    const entry = entries.get(key);
    if (!entry) return;
    entries.delete(key);
    bytes -= entry.bytes;
    if (entry.status === 404) notFoundBytes -= entry.bytes;
  };

  function store(key: string, entry: CachedPage) {
    if (entry.bytes > maxBytes) return;
    drop(key);
    entries.set(key, entry);
    bytes += entry.bytes;
    if (entry.status === 404) notFoundBytes += entry.bytes;
    for (const [oldest, kept] of entries) {
      if (notFoundBytes <= maxBytes / 8) break;
      if (kept.status === 404) drop(oldest);
    }
    for (const oldest of entries.keys()) {
      if (bytes <= maxBytes) break;
      drop(oldest);
    }
  }

  return {
    lookup(key, now = clock()) {
      const entry = entries.get(key);
      if (entry && now - entry.storedAt < entry.maxAgeMs) {
        // Most recently used now.
        entries.delete(key);
        entries.set(key, entry);
        counts.hits++;
        return { kind: 'fresh', page: entry };
      }
      const stale = entry && now - entry.storedAt < entry.maxAgeMs + staleMs ? entry : undefined;
      const expired = entry && !stale ? entry : undefined;
      if (expired) drop(key);
      const flight = flights.get(key);
      if (flight) {
        if (stale) counts.staleHits++;
        else counts.coalesced++;
        return { kind: 'wait', stale, render: flight };
      }
      counts.misses++;
      const started = generation;
      let settle!: (page: CachedPage | undefined) => void;
      const render = new Promise<CachedPage | undefined>((resolve) => (settle = resolve));
      flights.set(key, render);
      let settled = false;
      return {
        kind: 'render',
        stale,
        ...(expired ? { expired } : {}),
        get settled() {
          return settled;
        },
        done(result) {
          if (settled) return undefined;
          settled = true;
          let page: CachedPage | undefined;
          try {
            if (result) {
              page = makeEntry(result.status, result.html, result.tags, clock(), result.lastModified, result.maxAgeMs);
              const outdated = result.tags.some((tag) => (invalidatedAt.get(tag) ?? -1) >= started);
              if (result.cacheable && !outdated) store(key, page);
            }
          } finally {
            flights.delete(key);
            settle(page);
          }
          return page;
        },
      };
    },
    invalidate(tags) {
      const wanted = new Set(tags);
      for (const tag of wanted) invalidatedAt.set(tag, generation);
      generation++;
      let dropped = 0;
      for (const [key, entry] of entries) {
        if (entry.tags.some((tag) => wanted.has(tag))) {
          drop(key);
          dropped++;
        }
      }
      return dropped;
    },
    clear() {
      entries.clear();
      bytes = 0;
    },
    stats() {
      const asked = counts.hits + counts.staleHits + counts.misses + counts.coalesced;
      return {
        ...counts,
        entries: entries.size,
        bytes,
        maxBytes,
        hitRatio: asked === 0 ? null : (counts.hits + counts.staleHits + counts.coalesced) / asked,
      };
    },
  };
}
