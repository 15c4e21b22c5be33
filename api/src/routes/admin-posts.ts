import { adminPostListQuerySchema, adminPostUpdateSchema } from '@site/contracts/admin';
import { jsonBody } from '../middleware/json-body';
import { adminGuard } from './admin-guard';
import { parseQuery } from './query';
import { defineRoutes } from './route-module';

const expectedUpdatedAtSchema = adminPostUpdateSchema.pick({ expectedUpdatedAt: true });

/** The post fields of a body, without what the admin routes set themselves (status, the concurrency token). */
function postFields(body: unknown): unknown {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return body;
  const { status: _status, expectedUpdatedAt: _expected, ...rest } = body as Record<string, unknown>;
  return rest;
}

/**
 * Posts in the admin panel: every status, search and status filter, create (draft), update refusing stale
 * versions (409), publish (drafts only), delete. Validation, slugs, sanitizing, category counts, and the list's
 * pages and counts per status (in SQL) are the PostService's, exactly as for the webhook.
 */
export const adminPostsRoutes = defineRoutes({ config: ['bodyLimit', 'publicOrigin'], services: ['posts', 'admin'] }, (router, deps) => {
  const { config, services } = deps;
  const { guard } = adminGuard(deps);
  const body = jsonBody({ limit: config.bodyLimit });

  router.get('/api/admin/posts', ...guard, async (ctx) => {
    ctx.body = await services.posts.pageAll(parseQuery(adminPostListQuerySchema, ctx.query));
  });

  // Before /:id routes: 'preview' is not an id.
  router.post('/api/admin/posts/preview', ...guard, body, async (ctx) => {
    ctx.body = services.posts.previewContent(ctx.request.body);
  });

  router.get('/api/admin/posts/:id', ...guard, async (ctx) => {
    ctx.body = await services.posts.getById(ctx.params.id!);
  });

  router.post('/api/admin/posts', ...guard, body, async (ctx) => {
    ctx.status = 201;
    ctx.body = await services.posts.create(postFields(ctx.request.body));
  });

  router.put('/api/admin/posts/:id', ...guard, body, async (ctx) => {
    const { expectedUpdatedAt } = expectedUpdatedAtSchema.parse(ctx.request.body ?? {});
    ctx.body = await services.posts.update(ctx.params.id!, postFields(ctx.request.body), { expectedUpdatedAt });
  });

  router.post('/api/admin/posts/:id/publish', ...guard, async (ctx) => {
    ctx.body = await services.posts.publish(ctx.params.id!);
  });

  router.delete('/api/admin/posts/:id', ...guard, async (ctx) => {
    await services.posts.delete(ctx.params.id!);
    ctx.status = 204;
  });
});
