import { healthSchema, type Health } from '@site/contracts/manifest';
import { API_VERSION } from '../lib/version';
import type { RouteModule } from './route-module';

/** `GET /api/health`: API version, database reachability and the deployed remotes' versions. */
export const healthRoutes: RouteModule = (router, { database, remotes }) => {
  router.get('/api/health', async (ctx) => {
    const [dbOk, snapshot] = await Promise.all([database.ping(), remotes.snapshot()]);
    const health: Health = healthSchema.parse({
      status: dbOk ? 'ok' : 'degraded',
      version: API_VERSION,
      db: dbOk ? 'ok' : 'down',
      remotes: Object.fromEntries(snapshot.manifests.map((m) => [m.name, { version: m.version }])),
    });
    ctx.status = dbOk ? 200 : 503;
    ctx.set('Cache-Control', 'no-store');
    ctx.body = health;
  });
};
