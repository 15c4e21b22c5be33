import type { RouteModule } from './route-module';

/** `GET /api/health`: API version, database reachability and the deployed remotes' versions (503 when the database is down). */
export const healthRoutes: RouteModule = (router, { services }) => {
  router.get('/api/health', async (ctx) => {
    const health = await services.health.check();
    ctx.status = health.db === 'ok' ? 200 : 503;
    ctx.set('Cache-Control', 'no-store');
    ctx.body = health;
  });
};
