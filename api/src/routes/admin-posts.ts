import {
  adminPostListQuerySchema,
  adminPostUpdateSchema,
  type AdminPostList,
} from '@site/contracts/admin';
import { POST_STATUSES } from '@site/contracts/posts';
import { jsonBody } from '../middleware/json-body';
import { adminGuard } from './admin-guard';
import { parseQuery } from './query';
import type { RouteModule } from './route-module';

const expectedUpdatedAtSchema = adminPostUpdateSchema.pick({ expectedUpdatedAt: true });

/** The post fields of a body, without what the admin routes set themselves (status, the concurrency token). */
function postFields(body: unknown): unknown {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return body;
  const { status: _status, expectedUpdatedAt: _expected, ...rest } = body as Record<string, unknown>;
  return rest;
}

/**
 * Posts in the admin panel: every status, search and status filter, create (draft), update refusing stale
 * versions (409), publish (drafts only), delete. Validation, slugs, sanitizing and category counts are the
 * PostService's, exactly as for the webhook.
 */
export const adminPostsRoutes: RouteModule = (router, context) => {
  const { config, services } = context;
  const { guard } = adminGuard(context);
  const body = jsonBody({ limit: config.bodyLimit });

  router.get('/api/admin/posts', ...guard, async (ctx) => {
    const query = parseQuery(adminPostListQuerySchema, ctx.query);
    const [matching, all] = await Promise.all([
      services.posts.listAll({ q: query.q, status: query.status }),
      services.posts.listAll(),
    ]);
    const counts = Object.fromEntries(POST_STATUSES.map((s) => [s, all.filter((p) => p.status === s).length])) as AdminPostList['counts'];
    const start = (query.page - 1) * query.limit;
    ctx.body = {
      posts: matching.slice(start, start + query.limit),
      total: matching.length,
      page: query.page,
      limit: query.limit,
      counts,
    } satisfies AdminPostList;
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
};
