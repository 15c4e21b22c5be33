import { createHash } from 'node:crypto';
import { z } from 'zod';
import { BLOG_FEED_PATH } from '@site/contracts/blog-routes';
import { pageEntries, postEntries, renderRss, renderSitemap, renderSitemapIndex, sitePathOf, uniqueEntries, type ServedFile } from './feeds';
import { cachedValue, sendDocument } from '../http/cached-document';
import { defineEndpoints } from '../http/endpoint';
import { error, errorResponse } from '../http/openapi-parts';
import { NotFoundError } from '../lib/domain-errors';
import { POST_INDEX_TAG } from '../lib/content-tags';
import type { RemoteRegistry } from '../site/releases/remote-registry';
import type { RenderCache } from '../site/render/render-cache';
import type { PostService } from './post-service';

const FEED_CACHE = 'public, max-age=300';
/** The feed carries the newest posts only: a reader polls it for what is new, not for the archive. */
export const FEED_ITEMS = 50;
export const SITEMAP_PARTS_PATH = '/sitemaps';
const RSS_TYPE = 'application/rss+xml; charset=utf-8';
const XML_TYPE = 'application/xml; charset=utf-8';
const DEFAULT_SITEMAP_URLS = 10_000;

const xml = (description: string, contentType: string) => ({ description, body: { schema: z.string(), contentType } });
const NO_SUCH_PART = 'No such part of the sitemap';

/** What the static pages of the served releases are: part of the sitemap documents' cache key (a deploy changes them). */
async function servedPages(remotes: RemoteRegistry) {
  const { manifests } = await remotes.snapshot();
  const pages = manifests.flatMap((m) => m.pages ?? []);
  const digest = createHash('sha256')
    .update(manifests.map((m) => `${m.name}@${m.version}`).sort().join(','))
    .update(JSON.stringify(pages))
    .digest('base64url')
    .slice(0, 22);
  return { pages, digest };
}

const httpDate = (iso: string | undefined) => (iso ? new Date(iso).toUTCString() : undefined);
const newest = (dates: ReadonlyArray<string | undefined>) => dates.reduce<string | undefined>((a, b) => (b && (!a || b > a) ? b : a), undefined);

/**
 * `/blog/rss.xml` and the sitemap, built from the database and the deployed manifests. Registered on the API router,
 * which runs before the site's HTML fallback. Each document is made once per change of what it shows and kept in the
 * render cache (http/cached-document.ts); its size is bounded whatever the number of posts: the feed carries the newest
 * FEED_ITEMS, and past SITEMAP_URLS_PER_FILE addresses `/sitemap.xml` is a sitemap index of parts of at most that many.
 */
export const blogFeedsRoutes = defineEndpoints(
  { config: ['publicOrigin', 'sitemapUrlsPerFile'], services: ['posts', 'media'], context: ['remotes', 'documents'] },
  (endpoint) => {
    const perFile = (config: { sitemapUrlsPerFile?: number }) => config.sitemapUrlsPerFile ?? DEFAULT_SITEMAP_URLS;
    /** The published posts' parts (one pass over their keys), made once per change and shared by every sitemap document. */
    const partsOf = (services: { posts: PostService }, documents: RenderCache | undefined, size: number) =>
      cachedValue(documents, { key: `sitemap-parts\n${size}`, tags: [POST_INDEX_TAG], make: () => services.posts.sitemapParts(size) });
    return [
      endpoint({
        method: 'get',
        path: BLOG_FEED_PATH,
        tag: 'Blog',
        summary: `RSS 2.0 feed of the newest ${FEED_ITEMS} published posts (descriptions are HTML-escaped plain text); ETag and Last-Modified, 304 when unchanged`,
        description:
          "Each item's image: an `enclosure` with the file's exact length and type when it is a made image of the media library; a Media RSS `media:content` (no size: the feed never fetches an image) for an image of another site; none for a post without an image of its own.",
        cacheControl: FEED_CACHE,
        responses: { 200: xml('The feed.', 'application/rss+xml'), 304: { description: 'The feed has not changed since the client last read it.' } },
        handle: async (_input, { config, services, documents }, ctx) => {
          await sendDocument(ctx, documents, {
            key: `feed\n${config.publicOrigin}`,
            tags: [POST_INDEX_TAG],
            type: RSS_TYPE,
            make: async () => {
              const posts = await services.posts.feed(FEED_ITEMS);
              // The enclosures' sizes and types from the media library's rows (one query): no image is fetched or read.
              const described = await services.media.describe(posts.map((p) => sitePathOf(p.featuredImage, config.publicOrigin)));
              const files = new Map<string, ServedFile>();
              for (const [url, facts] of described) if (facts.file) files.set(url, facts.file);
              const body = renderRss(posts, {
                publicOrigin: config.publicOrigin,
                files,
                title: 'Tri-Valley AI Automation Blog',
                description: 'Practical guides and local case studies on AI chatbots and business automation for East Bay businesses.',
              });
              return { body, lastModified: httpDate(newest(posts.map((p) => p.updatedAt))) };
            },
          });
        },
      }),
      endpoint({
        method: 'get',
        path: '/sitemap.xml',
        tag: 'Blog',
        summary: 'Every public page and post; past SITEMAP_URLS_PER_FILE addresses, a sitemap index of parts',
        cacheControl: FEED_CACHE,
        responses: { 200: xml('The sitemap, or the sitemap index.', 'application/xml'), 304: { description: 'Unchanged since the client last read it.' } },
        handle: async (_input, { config, services, remotes, documents }, ctx) => {
          const { pages, digest } = await servedPages(remotes);
          const size = perFile(config);
          await sendDocument(ctx, documents, {
            key: `sitemap\n${config.publicOrigin}\n${digest}\n${size}`,
            tags: [POST_INDEX_TAG],
            type: XML_TYPE,
            make: async () => {
              const [parts, categories] = await Promise.all([partsOf(services, documents, size), services.posts.listCategories()]);
              const blogLastmod = newest(parts.map((p) => p.lastmod));
              const own = pageEntries(pages, categories.map((c) => c.slug), blogLastmod);
              const posts = parts.reduce((n, p) => n + p.count, 0);
              if (own.length + posts <= size) {
                const all = parts[0] ? await services.posts.sitemapPart(parts[0].first, size) : [];
                return { body: renderSitemap(uniqueEntries([...own, ...postEntries(all)]), config.publicOrigin) };
              }
              const index = [
                { path: `${SITEMAP_PARTS_PATH}/pages.xml`, lastmod: blogLastmod },
                ...parts.map((p, i) => ({ path: `${SITEMAP_PARTS_PATH}/posts-${i + 1}.xml`, lastmod: p.lastmod })),
              ];
              return { body: renderSitemapIndex(index, config.publicOrigin) };
            },
          });
        },
      }),
      endpoint({
        method: 'get',
        path: `${SITEMAP_PARTS_PATH}/pages.xml`,
        tag: 'Blog',
        summary: "A part of the sitemap index: the site's pages, the blog's index and its categories",
        cacheControl: FEED_CACHE,
        responses: { 200: xml('The part.', 'application/xml'), 304: { description: 'Unchanged since the client last read it.' } },
        handle: async (_input, { config, services, remotes, documents }, ctx) => {
          const { pages, digest } = await servedPages(remotes);
          const size = perFile(config);
          await sendDocument(ctx, documents, {
            key: `sitemap-pages\n${config.publicOrigin}\n${digest}\n${size}`,
            tags: [POST_INDEX_TAG],
            type: XML_TYPE,
            make: async () => {
              const [parts, categories] = await Promise.all([partsOf(services, documents, size), services.posts.listCategories()]);
              const own = uniqueEntries(pageEntries(pages, categories.map((c) => c.slug), newest(parts.map((p) => p.lastmod))));
              return { body: renderSitemap(own.slice(0, size), config.publicOrigin) };
            },
          });
        },
      }),
      endpoint({
        method: 'get',
        path: `${SITEMAP_PARTS_PATH}/posts-:n.xml`,
        tag: 'Blog',
        summary: 'A part of the sitemap index: published posts, oldest first, at most SITEMAP_URLS_PER_FILE',
        cacheControl: FEED_CACHE,
        params: { n: { description: 'The part, from 1.', example: '1', schema: z.string().regex(/^[1-9]\d{0,5}$/, 'A part number from 1') } },
        responses: {
          200: xml('The part.', 'application/xml'),
          304: { description: 'Unchanged since the client last read it.' },
          404: errorResponse('A part past the last one.', error('not_found', NO_SUCH_PART)),
        },
        handle: async ({ params }, { config, services, documents }, ctx) => {
          const size = perFile(config);
          const n = Number(params.n);
          await sendDocument(ctx, documents, {
            key: `sitemap-posts\n${config.publicOrigin}\n${size}\n${n}`,
            tags: [POST_INDEX_TAG],
            type: XML_TYPE,
            make: async () => {
              const part = (await partsOf(services, documents, size))[n - 1];
              if (!part) throw new NotFoundError(NO_SUCH_PART);
              return { body: renderSitemap(postEntries(await services.posts.sitemapPart(part.first, size)), config.publicOrigin) };
            },
          });
        },
      }),
    ];
  },
);
