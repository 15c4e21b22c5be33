import { adminPostListQuerySchema, adminPostScheduleSchema, adminPostUpdateSchema, postRevisionListQuerySchema, postRevisionRestoreSchema } from '@site/contracts/admin';
import type { PostActor } from '../services/post-service';
import { jsonBody } from '../middleware/json-body';
import { adminGuard } from './admin-guard';
import { parseQuery } from './query';
import { defineRoutes } from './route-module';

const expectedUpdatedAtSchema = adminPostUpdateSchema.pick({ expectedUpdatedAt: true });

const ADMIN: PostActor = { kind: 'admin' };

/** The post fields of a body, without what the admin routes set themselves (status, schedule, the concurrency token). */
function postFields(body: unknown): unknown {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return body;
  const { status: _status, publishAt: _publishAt, expectedUpdatedAt: _expected, ...rest } = body as Record<string, unknown>;
  return rest;
}

/**
 * Posts in the admin panel: every status, search and status filter, create (draft), update refusing stale
 * versions (409), publish (drafts and scheduled posts), schedule and unschedule, delete, each post's revision history
 * with restore, and the posts deleted in the last 30 days with undelete. Validation, slugs, sanitizing, category
 * counts, revisions, and the list's pages and counts per status (in SQL) are the PostService's, as for the webhook.
 */
export const adminPostsRoutes = defineRoutes({ config: ['bodyLimit', 'publicOrigin'], services: ['posts', 'scheduler', 'admin'] }, (router, deps) => {
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

  // Before /:id routes: 'deleted' is not an id.
  router.get('/api/admin/posts/deleted', ...guard, async (ctx) => {
    ctx.body = { posts: await services.posts.listDeleted() };
  });

  router.get('/api/admin/posts/:id', ...guard, async (ctx) => {
    ctx.body = await services.posts.getById(ctx.params.id!);
  });

  router.post('/api/admin/posts', ...guard, body, async (ctx) => {
    ctx.status = 201;
    ctx.body = await services.posts.create(postFields(ctx.request.body), { actor: ADMIN });
  });

  router.put('/api/admin/posts/:id', ...guard, body, async (ctx) => {
    const { expectedUpdatedAt } = expectedUpdatedAtSchema.parse(ctx.request.body ?? {});
    ctx.body = await services.posts.update(ctx.params.id!, postFields(ctx.request.body), { expectedUpdatedAt, actor: ADMIN });
  });

  router.post('/api/admin/posts/:id/publish', ...guard, async (ctx) => {
    ctx.body = await services.posts.publish(ctx.params.id!, { actor: ADMIN });
  });

  router.post('/api/admin/posts/:id/schedule', ...guard, body, async (ctx) => {
    const { publishAt, expectedUpdatedAt } = adminPostScheduleSchema.parse(ctx.request.body ?? {});
    const post = await services.posts.schedule(ctx.params.id!, publishAt, { expectedUpdatedAt, actor: ADMIN });
    // This instance's timer goes to the new time at once (others see it at their next poll, within seconds).
    void services.scheduler.check();
    ctx.body = post;
  });

  router.post('/api/admin/posts/:id/unschedule', ...guard, async (ctx) => {
    ctx.body = await services.posts.unschedule(ctx.params.id!, { actor: ADMIN });
  });

  router.get('/api/admin/posts/:id/revisions', ...guard, async (ctx) => {
    ctx.body = await services.posts.revisions(ctx.params.id!, parseQuery(postRevisionListQuerySchema, ctx.query));
  });

  router.get('/api/admin/posts/:id/revisions/:revisionId', ...guard, async (ctx) => {
    ctx.body = await services.posts.revision(ctx.params.id!, ctx.params.revisionId!);
  });

  router.post('/api/admin/posts/:id/revisions/:revisionId/restore', ...guard, body, async (ctx) => {
    const { expectedUpdatedAt } = postRevisionRestoreSchema.parse(ctx.request.body ?? {});
    ctx.body = await services.posts.restoreRevision(ctx.params.id!, ctx.params.revisionId!, { expectedUpdatedAt, actor: ADMIN });
  });

  router.post('/api/admin/posts/:id/undelete', ...guard, async (ctx) => {
    ctx.status = 201;
    ctx.body = await services.posts.undelete(ctx.params.id!, { actor: ADMIN });
  });

  router.delete('/api/admin/posts/:id', ...guard, async (ctx) => {
    await services.posts.delete(ctx.params.id!, { actor: ADMIN });
    ctx.status = 204;
  });
});
