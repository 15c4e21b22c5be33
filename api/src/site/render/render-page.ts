import type { Context } from 'koa';
import { finished } from 'node:stream/promises';
import type { Writable } from 'node:stream';
import { constants as zlibConstants } from 'node:zlib';
import { compressorStream, pickEncoding } from '../../lib/compression';
import type { Logger } from '../../lib/logger';
import { withSpan } from '../../lib/tracing';
import { createHash } from 'node:crypto';
import { dataTags, remoteTag } from '../../lib/content-tags';
import { matchesIfNoneMatch } from '../../lib/etag';
import { identity, type PageComposer } from './compose-page';
import { bodyOf, type CachedPage, type Lookup, type RenderCache } from './render-cache';
import { resolveHead } from './dynamic-pages';
import type { RemoteRegistry, RemotesSnapshot } from '../releases/remote-registry';
import { renderShellDocument, type HeadContent } from './document-html';
import { resolvePage, type ResolvedPage } from './resolve-page';
import type { RouteDataLoaders } from './route-data';
import type { ShellDocument, ShellPage } from './shell-document';
import { NO_CACHE } from '../static/static-files';
import { DATABASE_RETRY_AFTER_SECONDS, isDatabaseUnavailable } from '../../db/db-errors';
import { isBotUserAgent } from '../../events/bot-user-agent';
import { SERVED_RELEASES, type ChooseReleases, type ReleaseChoice } from '../releases/release-choice';
import type { PreviewGrant } from '../releases/preview-tokens';
import { answerPrivately, setPreviewCookie } from './preview';
import { setDevOverrideCookie } from './dev-override';
import { policyWithOrigin } from '../../middleware/security-headers';
import type { DevOverrideGrant } from '../releases/dev-override-tokens';
import type { RemoteName } from '@site/contracts/manifest';

/*
 * A page of the site, served: resolved once per request (one snapshot of the releases), answered from the render cache
 * when it holds the page, else rendered on the server (its head written and flushed first, then the shell's and the
 * remote's render streamed) and kept for the next visitor. site-handler.ts routes every HTML request here.
 */

export interface PageOptions {
  publicOrigin: string;
  shell: ShellDocument;
  remotes: RemoteRegistry;
  /** The server's loaders of the data a page's route names (the head and the server render use them). */
  loaders: RouteDataLoaders;
  /** Renders the page's body on the server (shell + the matched remote); without it pages render in the browser. */
  composer?: PageComposer;
  /** Keeps rendered pages (render-cache.ts); without it every request renders. */
  cache?: RenderCache;
  /**
   * Which release of each remote a request gets (release-choice.ts): a browser previewing a staged release gets it, its
   * page says so (a banner), is for it alone and never indexed. Without it every request gets the served releases.
   */
  chooseReleases?: ChooseReleases;
  logger?: Logger;
  /**
   * Told each page of a remote a visitor got (not a crawler's, nor a prefetch; a page that exists), and each server
   * render of one that failed or left the remote's area to the browser, with the release that served it
   * (release-errors/). Must not throw.
   */
  releaseCounts?: ReleaseCounter;
}

/** Counts a remote's pages and failed server renders against its release (release-errors/release-errors-service.ts). */
export interface ReleaseCounter {
  pageView(app: RemoteName, release: string): void;
  renderError(app: RemoteName, release: string): void;
}

/** What a CDN may do with a public page: keep it a minute, serve it 10 more while it fetches a new one. */
const CDN_PAGE_CACHE = 'max-age=60, stale-while-revalidate=600';
const NOT_BUILT = 'The site has not been built yet. Run `npm run build`, then start the server again.\n';

export async function servePage(ctx: Context, options: PageOptions, choice: ReleaseChoice = SERVED_RELEASES): Promise<void> {
  const page = await options.shell.load();
  if (!page) {
    ctx.status = 503;
    ctx.set('Cache-Control', 'no-store');
    ctx.type = 'text/plain; charset=utf-8';
    ctx.body = NOT_BUILT;
    return;
  }
  // One snapshot and one resolution per request: the head, the body, the stylesheets and the inlined remotes map all
  // read this page, whatever a deploy does meanwhile; its data is loaded once for the head and the body.
  // The releases this request gets (the choice's snapshot: the served one, or with the staged release it previews).
  const { snapshot, resolved, refused } = await withSpan('site resolve page', {}, async (span) => {
    const { snapshot, refused } = await options.remotes.snapshotFor(choice);
    const resolved = resolvePage(snapshot, ctx.path, new URLSearchParams(ctx.querystring), options.loaders);
    span?.setAttribute('site.remote', resolved.owner?.manifest.name ?? 'shell');
    return { snapshot, resolved, refused };
  });
  const preview = choice.preview && snapshot.served?.[choice.preview.app]?.chosen === 'preview' ? choice.preview : undefined;
  // A preview cookie that grants nothing any more (expired, promoted, removed, not signed by a trusted key): the served
  // releases, and the cookie goes.
  const refusedPreview = refused.filter((r) => r.why === 'preview');
  if (choice.clearCookie || refusedPreview.length > 0) {
    setPreviewCookie(ctx, null);
    options.logger?.info({ path: ctx.path, reason: choice.clearCookie ?? refusedPreview.map((r) => `${r.app} ${r.version}: ${r.reason}`).join('; ') }, 'a preview is not served: its cookie is cleared');
  }
  // A canary's release that cannot run here (not copied yet, or it fails the checks): its visitors get the served one.
  for (const r of refused) if (r.why === 'canary') options.logger?.warn({ remote: r.app, version: r.version, reason: r.reason }, 'a canary release is not served on this instance: its visitors get the served release');
  if (choice.clearDevCookie) {
    setDevOverrideCookie(ctx, null);
    options.logger?.info({ path: ctx.path, reason: choice.clearDevCookie }, 'a development override is not served: its cookie is cleared');
  }
  // A development override: this page may load that remote's code from the developer's origin, for this browser alone.
  const dev = choice.dev;
  if (dev) ctx.set('Content-Security-Policy', policyWithOrigin(ctx.response.get('Content-Security-Policy'), dev.origin));
  // Whatever depends on the cookies (a preview, a canary's bucket, a development override) is this browser's alone.
  const personal = choice !== SERVED_RELEASES ? { preview: Boolean(preview || dev) } : undefined;
  const owner = resolved.owner?.manifest;
  // The render cache: public pages rendered on the server, without a query string (a query is the visitor's own
  // search or campaign tag; it is rendered each time, so no one can fill the cache with made-up URLs).
  const { composer, cache } = options;
  // A development override's pages are never kept: each names a developer's URL, and its remote renders in the browser.
  const cacheable = Boolean(cache && composer) && !ctx.querystring && !dev && (!owner || Boolean(owner.server?.entry));
  let leader: Extract<Lookup, { kind: 'render' }> | undefined;
  const tags = cacheable ? pageTags(resolved) : [];
  if (cacheable) {
    const lookup = cache!.lookup(await renderCacheKey(options, page, snapshot, ctx.path));
    const kept = (cached: CachedPage, how: 'hit' | 'stale' | 'coalesced') => {
      if (cached.status === 200) countView(ctx, options, resolved);
      sendCached(ctx, cached, how, personal);
    };
    if (lookup.kind === 'fresh') return kept(lookup.page, 'hit');
    if (lookup.kind === 'wait') {
      if (lookup.stale) return kept(lookup.stale, 'stale');
      const made = await lookup.render;
      if (made) return kept(made, 'coalesced');
    } else if (ctx.method === 'HEAD') {
      // A HEAD renders nothing: whoever asks next renders it.
      lookup.done(undefined);
    } else {
      leader = lookup;
    }
  }
  ctx.set('X-Render-Cache', leader ? 'miss' : 'bypass');
  try {
    // The page's head: its metadata, from the route's data (loaded here once for the head and the render).
    let meta: Awaited<ReturnType<typeof resolveHead>>;
    try {
      meta = await withSpan('site resolve head', { attributes: { 'site.remote': owner?.name ?? 'shell' } }, () => resolveHead(resolved, options.logger));
    } catch (error) {
      if (!isDatabaseUnavailable(error)) throw error;
      // The database is away: the page as last rendered (kept again, for whoever asks next), else a short 503 page.
      options.logger?.warn({ path: ctx.path, err: error }, 'page data unavailable (database): sending the page last rendered, if any');
      const previous = leader && (leader.stale ?? leader.expired);
      const kept = previous && leader!.done({ ...previous, cacheable: true });
      if (kept) return sendCached(ctx, kept, 'stale', personal);
      return databaseUnavailablePage(ctx);
    }
    let head: HeadContent;
    if (meta === 'not-found') head = { kind: 'not-found' };
    else if (meta) head = { kind: 'page', meta };
    else if (resolved.owner) head = { kind: 'default', path: ctx.path };
    else head = { kind: 'not-found' };
    await renderPage(ctx, options, { page, snapshot, resolved, head, leader, tags, cacheable, preview, personal, dev });
  } finally {
    // Whatever happened, whoever waits for this render is let go (with nothing: they render it themselves).
    if (leader && !leader.settled) leader.done(undefined);
  }
}

async function renderPage(
  ctx: Context,
  options: PageOptions,
  { page, snapshot, resolved, head, leader, tags, cacheable, preview, personal, dev }: {
    page: ShellPage;
    snapshot: RemotesSnapshot;
    resolved: ResolvedPage;
    head: HeadContent;
    leader: Extract<Lookup, { kind: 'render' }> | undefined;
    tags: string[];
    cacheable: boolean;
    /** The staged release this page previews (its banner, noindex). */
    preview: PreviewGrant | undefined;
    /** The answer depends on the preview cookie: for this browser alone. */
    personal: { preview: boolean } | undefined;
    /** The development override this browser has on (its banner; its remote's pages are not counted). */
    dev: DevOverrideGrant | undefined;
  },
): Promise<void> {
  const { composer } = options;
  const owner = resolved.owner?.manifest;

  ctx.status = head.kind === 'not-found' ? 404 : 200;
  // An answer for a page that does not exist is not stored for the next visitor (the post may be published soon).
  ctx.set('Cache-Control', head.kind === 'not-found' ? 'no-store' : NO_CACHE);
  if (cacheable && head.kind !== 'not-found') setCdnHeaders(ctx, tags);
  if (personal) answerPrivately(ctx, personal.preview);
  ctx.type = 'text/html; charset=utf-8';
  // A GET is compressed by Accept-Encoding (streamed or in memory); a HEAD must describe the same representation.
  ctx.vary('Accept-Encoding');

  // The remote that renders this page (an unknown slug inside its routes is its own not-found page).
  const ownerEntry = owner ? snapshot.map[owner.name]?.entry : undefined;
  // Expected to come from the server: then the remote's stylesheets go in the head at once, and its code is
  // preloaded by the shell's loader after the first paint. A page rendered in the browser alone preloads it at once.
  const onServer = Boolean(options.composer) && (!owner || Boolean(owner.server?.entry));
  const document = renderShellDocument(page.html, {
    head,
    remotes: snapshot.map,
    publicOrigin: options.publicOrigin,
    preload: !onServer && ownerEntry ? [ownerEntry] : [],
    styles: onServer && owner ? remoteStyles(owner.styles ?? [], ownerEntry) : [],
    // Made from the snapshot alone (app and version), so the kept page of this snapshot is the same for every previewer.
    ...(preview ? { preview: { app: preview.app, version: preview.version } } : {}),
    ...(dev ? { devOverride: { app: dev.app, origin: dev.origin } } : {}),
  });
  // A developer's build is no release: its pages count against none.
  const counted = head.kind !== 'not-found' && owner?.name !== dev?.app && countView(ctx, options, resolved);
  if (!composer || ctx.method === 'HEAD') {
    ctx.body = document.start + document.finish();
    return;
  }

  // Not rendered on the server after all: the empty #root, with the remote's code preloaded at once.
  const inBrowser = () => document.finish(undefined, { preload: ownerEntry ? [ownerEntry] : [] });
  let complete = false;
  await streamDocument(
    ctx,
    document.start,
    options.logger,
    inBrowser,
    async () => {
      const body = await composer.compose({ url: ctx.url, notFound: head.kind === 'not-found', page: resolved, shell: page.entry });
      if (!body) return null;
      complete = body.complete;
      // The remote's area went to the browser (its render threw, took too long, or its module did not load).
      if (counted && !complete && owner) options.releaseCounts!.renderError(owner.name, owner.version);
      return {
        html: document.finish({ html: body.html, headTags: body.headTags, site: body.site }),
        timing: `ssr;dur=${body.renderMs.toFixed(1)}`,
      };
    },
    // Kept before this visitor has the last byte, so the next one finds it: only when whole (rendered on the server,
    // and a page that exists or a remote's own not-found page, kept briefly). Whoever waited gets it either way.
    leader &&
      ((html, whole) => {
        const keep = complete && whole && (head.kind !== 'not-found' || Boolean(owner));
        leader.done({ status: ctx.status, html, tags, cacheable: keep });
      }),
  );
}

/**
 * Counts a page of a remote a visitor got against the release serving it: a GET (a HEAD renders nothing) from a browser
 * a person uses (isBotUserAgent, as the tracking events; not a prefetch). The manifest's version: the one the remotes map
 * gives the browser, whose reports name it too. True when counted.
 */
function countView(ctx: Context, options: PageOptions, resolved: ResolvedPage): boolean {
  const owner = resolved.owner?.manifest;
  if (!options.releaseCounts || !owner || ctx.method !== 'GET') return false;
  if (isBotUserAgent(ctx.get('User-Agent')) || /\bprefetch\b/i.test(ctx.get('Sec-Purpose') || ctx.get('Purpose'))) return false;
  options.releaseCounts.pageView(owner.name, owner.version);
  return true;
}

/**
 * Everything a page's answer is read from, and how the render cache accounts for each (render-cache.ts says why):
 * `key` (renderCacheKey below), `tags` (pageTags: dropped when the data changes), `bypass` (such a request is never
 * kept), or a reason it does not change the kept document. render-inputs.test.ts renders every public route through
 * recording proxies of the request, these options, the data loaders and the environment, and fails on a read that is
 * not listed here: a new input goes in the key or the tags, or is said here to leave the kept page alone.
 */
export const RENDER_INPUTS = {
  /** Read from the request (`header:<name>` for a header). */
  request: {
    method: 'answer: HEAD sends what GET would, rendered or kept; other methods get 405',
    path: 'key',
    url: 'key and bypass: the path, and the query string',
    querystring: 'bypass: a page with a query string is rendered every time, never kept',
    'header:accept': 'answer: the page or a plain 404, decided before the cache (Vary: Accept)',
    'header:accept-encoding': 'answer: which of the kept bodies is sent (Vary: Accept-Encoding)',
    'header:if-none-match': "answer: 304 when it names the kept page's ETag",
    'header:user-agent': 'counts only: a crawler\'s page is not counted against the release (releaseCounts)',
    'header:sec-purpose': 'counts only: a prefetch is not counted against the release (releaseCounts)',
    'header:purpose': 'counts only: a prefetch is not counted against the release (releaseCounts)',
    'cookie:site_preview': "key: the releases it chooses (chooseReleases) are the snapshot's, which is in the key",
    'cookie:site_bucket': "key: while a canary runs, the visitor's bucket chooses a canary's release or the served one (chooseReleases): the snapshot's, which is in the key",
    'cookie:site_dev_override': 'bypass: a browser with a development override (chooseReleases) gets pages rendered for it alone, never kept',
    'cookie:admin_session': "answer: read only with a development override cookie, to withhold the override from the admin: that browser then gets every visitor's page",
    'cookie:__Host-admin_session': "answer: read only with a development override cookie, to withhold the override from the admin: that browser then gets every visitor's page",
  },
  /** Read from PageOptions. */
  options: {
    publicOrigin: 'key',
    shell: "key: the digest of the shell's index.html",
    remotes: 'key: the digest of the served snapshot (map, versions, folders, modules)',
    composer: "key: the identity of the shell's server entry",
    loaders: 'tags: the route data source and its param (dataTags)',
    cache: 'the cache itself',
    logger: 'answer: logs only',
    releaseCounts: 'answer: counts only (page views and failed renders per release)',
    chooseReleases: "key: the snapshot of the releases it chose (a staged release previewed, a canary's release) is in the key",
    previews: 'answer: a preview link (?preview=) is answered before any page: a redirect that sets the cookie',
    devOverrides: "answer: a development override link (?dev-override=) is answered before any page (its confirmation page, or its POST: a redirect that sets the cookie); it withholds the cookie from chooseReleases on the admin's pages and with a live admin session",
  },
  /** The route data sources a render loads. */
  data: {
    post: 'tags: post:<slug>',
    'post-list': 'tags: posts:index, category:<slug>; the query-string lists are bypassed',
    'analysis-report': 'tags: analysis:<id>',
  },
  /** process.env, read while answering: only while a release's server modules are first loaded, never per page. */
  env: {
    NODE_ENV: "process: which build of React the server modules load, fixed for the process's life",
    NODE_V8_COVERAGE: "process: Node's module loader, as it requires a module",
    WATCH_REPORT_DEPENDENCIES: "process: Node's module loader, as it requires a module",
  },
} as const;

/** What a page's entry in the render cache is made from besides its tags (RENDER_INPUTS). */
export async function renderCacheKey(options: Pick<PageOptions, 'publicOrigin' | 'composer'>, page: ShellPage, snapshot: RemotesSnapshot, path: string): Promise<string> {
  return [
    options.publicOrigin,
    path,
    `shell:${page.version}@${digestOf(page, () => page.html)}`,
    // The same page object's server entry: the one its body is rendered with (compose gets page.entry).
    `shell-server:${options.composer && page.entry ? identity(page.entry) : 'none'}`,
    `remotes:${digestOf(snapshot, () => snapshotText(snapshot))}`,
  ].join('\n');
}

/** The served state of every remote: the map inlined in each page, and each release's version, folder and module. */
function snapshotText(snapshot: RemotesSnapshot): string {
  const served = Object.values(snapshot.served ?? {}).map((s) => `${s.name}@${s.version}@${s.dir}@${s.module ? identity(s.module) : 'none'}`);
  return JSON.stringify(snapshot.map) + served.sort().join(',');
}

const digests = new WeakMap<object, string>();
/** A digest of `text()`, computed once per object (a shell page, a snapshot: both are replaced, never changed). */
function digestOf(owner: object, text: () => string): string {
  let digest = digests.get(owner);
  if (!digest) digests.set(owner, (digest = createHash('sha256').update(text()).digest('base64url').slice(0, 22)));
  return digest;
}

/** The data tags of a page (lib/content-tags.ts) and the remote that renders it. */
function pageTags(page: ResolvedPage): string[] {
  const owner = page.owner;
  if (!owner) return [];
  const source = owner.route?.def.data;
  const param = source?.param === undefined ? undefined : owner.route?.params[source.param];
  return [...dataTags(source?.source, param), remoteTag(owner.manifest.name)];
}

/**
 * Browsers revalidate every page (`no-cache`, then a 304 by its ETag); a CDN may keep it a minute and serve it a
 * while longer as it refreshes (`CDN-Cache-Control`, RFC 9213; `Surrogate-Control` for CDNs that read that), and
 * purge it by the names of what it was made from (`Surrogate-Key`, `Cache-Tag`).
 */
function setCdnHeaders(ctx: Context, tags: readonly string[]): void {
  ctx.set('CDN-Cache-Control', CDN_PAGE_CACHE);
  ctx.set('Surrogate-Control', CDN_PAGE_CACHE);
  const keys = ['page', ...tags];
  ctx.set('Surrogate-Key', keys.join(' '));
  ctx.set('Cache-Tag', keys.join(','));
}

/** A page from the render cache: its precompressed body for the client's encoding, or 304 when its ETag matches. */
/** A page the server cannot make while the database is away (not rendered before): a short 503 the visitor can retry. */
function databaseUnavailablePage(ctx: Context): void {
  ctx.status = 503;
  ctx.set('Retry-After', String(DATABASE_RETRY_AFTER_SECONDS));
  ctx.set('Cache-Control', 'no-store');
  ctx.type = 'text/html; charset=utf-8';
  ctx.body =
    '<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">' +
    '<meta name="robots" content="noindex"><title>Back in a moment</title></head><body><main><h1>Back in a moment</h1>' +
    '<p>This page cannot be shown right now. Please try again in a few seconds.</p><p><a href="/">Home page</a></p></main></body></html>\n';
}

function sendCached(ctx: Context, page: CachedPage, how: 'hit' | 'stale' | 'coalesced', personal?: { preview: boolean }): void {
  ctx.status = page.status;
  ctx.type = 'text/html; charset=utf-8';
  ctx.vary('Accept-Encoding');
  ctx.set('X-Render-Cache', how);
  ctx.set('ETag', page.etag);
  if (page.status === 404) {
    ctx.set('Cache-Control', 'no-store');
  } else {
    ctx.set('Cache-Control', NO_CACHE);
    setCdnHeaders(ctx, page.tags);
    if (personal) answerPrivately(ctx, personal.preview);
    if (matchesIfNoneMatch(ctx.get('If-None-Match'), page.etag)) {
      ctx.status = 304;
      return;
    }
  }
  const encoding = pickEncoding(ctx.get('Accept-Encoding'));
  if (encoding) ctx.set('Content-Encoding', encoding);
  ctx.body = bodyOf(page, encoding);
}


/**
 * Sends an HTML document as it is made: `start` (the head) at once, so the browser fetches the stylesheets while
 * the server renders, then the rest. Compressed as a stream (brotli or gzip, flushed after the head). The server's
 * render time goes out after the body, as a `Server-Timing` trailer. Nothing can fail the answer once it has
 * started: no render, or one that throws, ends the document with the page rendered in the browser (`fallback`).
 */
async function streamDocument(
  ctx: Context,
  start: string,
  logger: Logger | undefined,
  fallback: () => string,
  rest: () => Promise<{ html: string; timing?: string } | null>,
  /** Told the whole document before its end is sent, and whether it is the render (not the fallback). */
  beforeEnd?: ((html: string, whole: boolean) => void) | undefined,
): Promise<void> {
  const encoding = pickEncoding(ctx.get('Accept-Encoding'));
  ctx.vary('Accept-Encoding');
  if (encoding) ctx.set('Content-Encoding', encoding);
  ctx.set('Trailer', 'Server-Timing');
  // Koa hands the answer over: headers are already set on the response, the body is written here.
  ctx.respond = false;
  const res = ctx.res;
  const compressor = encoding ? compressorStream(encoding) : undefined;
  compressor?.pipe(res);
  const out: Writable = compressor ?? res;
  const done = finished(res).catch(() => undefined);
  res.once('close', () => {
    if (compressor && !compressor.destroyed) compressor.destroy();
  });

  out.write(start);
  compressor?.flush(encoding === 'gzip' ? zlibConstants.Z_SYNC_FLUSH : zlibConstants.BROTLI_OPERATION_FLUSH);
  let end: { html: string; timing?: string };
  let whole = false;
  try {
    const rendered = await rest();
    whole = rendered !== null;
    end = rendered ?? { html: fallback() };
  } catch (error) {
    logger?.error({ err: error, path: ctx.path }, 'the page failed after its head was sent: it is rendered in the browser');
    end = { html: fallback() };
  }
  beforeEnd?.(start + end.html, whole);
  if (end.timing && !res.destroyed) res.addTrailers({ 'Server-Timing': end.timing });
  if (!out.destroyed) out.end(end.html);
  await done;
}

/**
 * URLs of a remote's stylesheets: beside its remoteEntry.js (`<base>/assets/remoteEntry.js` -> `<base>/<style>`).
 * Same-origin remotes only: a render-blocking stylesheet from another host that is slow or down would hold the whole
 * page's first paint (the federation runtime still brings that remote's CSS with its code).
 */
function remoteStyles(styles: string[], entry: string | undefined): string[] {
  const suffix = 'assets/remoteEntry.js';
  if (!entry?.endsWith(suffix) || !entry.startsWith('/') || entry.startsWith('//')) return [];
  const base = entry.slice(0, -suffix.length);
  return styles.map((style) => `${base}${style}`);
}
