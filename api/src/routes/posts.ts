import { postListQuerySchema } from '@site/contracts/posts';
import { rateLimit } from '../middleware/rate-limit';
import { parseQuery } from './query';
import { defineRoutes } from './route-module';

/** Public blog API: published posts, one post by slug, its view counter, and the categories. */
export const postsRoutes = defineRoutes(
  { config: ['rateLimitMultiplier'], services: ['posts'], context: ['rateLimits'] },
  (router, { config, services, rateLimits }) => {
    router.get('/api/posts', async (ctx) => {
      const page = await services.posts.pagePublished(parseQuery(postListQuerySchema, ctx.query, { emptyAsAbsent: true }));
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
  },
);
