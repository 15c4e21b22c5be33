import { rateLimit } from '../middleware/rate-limit';
import type { RouteModule } from './route-module';

/** Public blog API: published posts, one post by slug, its view counter, and the categories. */
export const postsRoutes: RouteModule = (router, { config, services, rateLimits }) => {
  router.get('/api/posts', async (ctx) => {
    const param = (name: string) => (typeof ctx.query[name] === 'string' && ctx.query[name] !== '' ? ctx.query[name] : undefined);
    const page = await services.posts.pagePublished({
      q: param('q'),
      category: param('category'),
      limit: param('limit'),
      cursor: param('cursor'),
    });
    ctx.set('Cache-Control', 'no-cache');
    ctx.body = page;
  });

  router.get('/api/posts/:slug', async (ctx) => {
    ctx.set('Cache-Control', 'no-cache');
    ctx.body = await services.posts.getPublished(ctx.params.slug!);
  });

  router.post(
    '/api/posts/:slug/views',
    // One view per page view: a reader opens a few posts a minute, not hundreds.
    rateLimit({ windowMs: 60_000, max: 60, keyPrefix: 'post-views', store: rateLimits, multiplier: config.rateLimitMultiplier }),
    async (ctx) => {
      ctx.body = { views: await services.posts.addView(ctx.params.slug!) };
    },
  );

  router.get('/api/categories', async (ctx) => {
    ctx.set('Cache-Control', 'no-cache');
    ctx.body = { categories: await services.posts.listCategories() };
  });
};
