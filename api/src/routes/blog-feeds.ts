import { BLOG_FEED_PATH } from '@site/contracts/blog-routes';
import { renderRss, renderSitemap, sitemapEntries } from '../services/feeds';
import { defineRoutes } from './route-module';

const FEED_CACHE = 'public, max-age=300';

/**
 * `/blog/rss.xml` and `/sitemap.xml`, built from the database and the deployed manifests. Registered on the
 * API router, which runs before the site's HTML fallback.
 */
export const blogFeedsRoutes = defineRoutes(
  { config: ['publicOrigin'], services: ['posts'], context: ['remotes'] },
  (router, { config, services, remotes }) => {
    router.get(BLOG_FEED_PATH, async (ctx) => {
      const posts = await services.posts.listPublished();
      ctx.set('Cache-Control', FEED_CACHE);
      ctx.type = 'application/rss+xml; charset=utf-8';
      ctx.body = renderRss(posts, {
        publicOrigin: config.publicOrigin,
        title: 'Tri-Valley AI Automation Blog',
        description: 'Practical guides and local case studies on AI chatbots and business automation for East Bay businesses.',
      });
    });

    router.get('/sitemap.xml', async (ctx) => {
      const [{ manifests }, posts] = await Promise.all([remotes.snapshot(), services.posts.listPublished()]);
      const pages = manifests.flatMap((m) => m.pages ?? []);
      ctx.set('Cache-Control', FEED_CACHE);
      ctx.type = 'application/xml; charset=utf-8';
      ctx.body = renderSitemap(sitemapEntries(pages, posts), config.publicOrigin);
    });
  },
);
