import { z } from 'zod';
import { BLOG_FEED_PATH } from '@site/contracts/blog-routes';
import { renderRss, renderSitemap, sitemapEntries } from './feeds';
import { defineEndpoints } from '../http/endpoint';

const FEED_CACHE = 'public, max-age=300';

/**
 * `/blog/rss.xml` and `/sitemap.xml`, built from the database and the deployed manifests. Registered on the
 * API router, which runs before the site's HTML fallback.
 */
export const blogFeedsRoutes = defineEndpoints({ config: ['publicOrigin'], services: ['posts'], context: ['remotes'] }, (endpoint) => [
  endpoint({
    method: 'get',
    path: BLOG_FEED_PATH,
    tag: 'Blog',
    summary: 'RSS 2.0 feed of the published posts (descriptions are HTML-escaped plain text)',
    cacheControl: FEED_CACHE,
    responses: { 200: { description: 'The feed.', body: { schema: z.string(), contentType: 'application/rss+xml' } } },
    handle: async (_input, { config, services }, ctx) => {
      const posts = await services.posts.listPublished();
      ctx.type = 'application/rss+xml; charset=utf-8';
      return renderRss(posts, {
        publicOrigin: config.publicOrigin,
        title: 'Tri-Valley AI Automation Blog',
        description: 'Practical guides and local case studies on AI chatbots and business automation for East Bay businesses.',
      });
    },
  }),
  endpoint({
    method: 'get',
    path: '/sitemap.xml',
    tag: 'Blog',
    summary: 'Every public page and post',
    cacheControl: FEED_CACHE,
    responses: { 200: { description: 'The sitemap.', body: { schema: z.string(), contentType: 'application/xml' } } },
    handle: async (_input, { config, services, remotes }, ctx) => {
      const [{ manifests }, posts] = await Promise.all([remotes.snapshot(), services.posts.listPublished()]);
      const pages = manifests.flatMap((m) => m.pages ?? []);
      ctx.type = 'application/xml; charset=utf-8';
      return renderSitemap(sitemapEntries(pages, posts), config.publicOrigin);
    },
  }),
]);
