import { postListQuerySchema } from '@site/contracts/posts';
import { rateLimit } from '../middleware/rate-limit';
import type { RouteModule } from './route-module';

/** Public blog API: published posts, one post by slug, its view counter, and the categories. */
export const postsRoutes: RouteModule = (router, { config, services, clock }) => {
  router.get('/api/posts', async (ctx) => {
    const query = postListQuerySchema.parse({
      q: typeof ctx.query.q === 'string' ? ctx.query.q : undefined,
      category: typeof ctx.query.category === 'string' ? ctx.query.category : undefined,
    });
    const posts = await services.posts.listPublished(query);
    ctx.set('Cache-Control', 'no-cache');
    ctx.body = { posts, total: posts.length };
  });

  router.get('/api/posts/:slug', async (ctx) => {
    ctx.set('Cache-Control', 'no-cache');
    ctx.body = await services.posts.getPublished(ctx.params.slug!);
  });

  router.post(
    '/api/posts/:slug/views',
    // One view per page view: a reader opens a few posts a minute, not hundreds.
    rateLimit({ windowMs: 60_000, max: 60, keyPrefix: 'post-views', clock, multiplier: config.rateLimitMultiplier }),
    async (ctx) => {
      ctx.body = { views: await services.posts.addView(ctx.params.slug!) };
    },
  );

  router.get('/api/categories', async (ctx) => {
    ctx.set('Cache-Control', 'no-cache');
    ctx.body = { categories: await services.posts.listCategories() };
  });
};
