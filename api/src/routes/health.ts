import type { Context } from 'koa';
import { sessionToken } from '../middleware/require-admin';
import { publicHealth } from '../services/health-service';
import { defineRoutes, type RouteDeps } from './route-module';

/**
 * `GET /api/health`: API version, database reachability and the deployed remotes' versions (503 when the database is
 * down); with an admin session, also whether each remote's files and server module load, why not, and the release
 * refused in favour of the last known good. For a load balancer: `GET /api/health/live` (liveness: the process answers; restart it when this fails) and
 * `GET /api/health/ready` (readiness: the database answers and the instance is not shutting down; send it traffic
 * only while this is 200).
 */
export const healthRoutes = defineRoutes({ services: ['health', 'admin'], context: ['lifecycle'] }, (router, { services, lifecycle }) => {
  router.get('/api/health', async (ctx) => {
    const [health, admin] = await Promise.all([services.health.check(), isAdmin(ctx, services)]);
    ctx.status = health.db === 'ok' ? 200 : 503;
    ctx.set('Cache-Control', 'no-store');
    ctx.body = admin ? health : publicHealth(health);
  });

  router.get('/api/health/live', (ctx) => {
    ctx.set('Cache-Control', 'no-store');
    ctx.body = { status: 'ok' };
  });

  // A 503 here is a state, not a fault: answered directly (the error envelope), so it raises no server-error alert.
  router.get('/api/health/ready', async (ctx) => {
    ctx.set('Cache-Control', 'no-store');
    if (lifecycle.draining()) {
      ctx.status = 503;
      ctx.body = { error: { code: 'draining', message: 'This instance is shutting down and finishing its requests.' } };
      return;
    }
    if (!(await services.health.ping())) {
      ctx.status = 503;
      ctx.body = { error: { code: 'database_unavailable', message: 'The database does not answer.' } };
      return;
    }
    ctx.body = { status: 'ready' };
  });
});

/** A live admin session; false without one, and when the sessions cannot be read (the database may be what is down). */
async function isAdmin(ctx: Context, services: RouteDeps<never, 'admin'>['services']): Promise<boolean> {
  const token = sessionToken(ctx);
  if (!token) return false;
  return Boolean(await services.admin.auth.authenticate(token).catch(() => undefined));
}
