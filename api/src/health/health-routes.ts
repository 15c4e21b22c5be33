import type { Context } from 'koa';
import { z } from 'zod';
import { healthSchema } from '@site/contracts/manifest';
import { sessionToken } from '../middleware/require-admin';
import { publicHealth } from './health-service';
import { defineEndpoints } from '../http/endpoint';
import { error, errorResponse } from '../http/openapi-parts';
import type { RouteDeps } from '../http/route-module';

const NO_STORE = 'no-store';

/**
 * `GET /api/health`: API version, database reachability and the deployed remotes' versions (503 when the database is
 * down); with an admin session, also whether each remote's files and server module load, why not, and the release
 * refused in favour of the last known good. For a load balancer: `GET /api/health/live` (liveness: the process answers; restart it when this fails) and
 * `GET /api/health/ready` (readiness: the database answers and the instance is not shutting down; send it traffic
 * only while this is 200).
 */
export const healthRoutes = defineEndpoints({ services: ['health', 'admin'], context: ['lifecycle'] }, (endpoint) => [
  endpoint({
    method: 'get',
    path: '/api/health',
    tag: 'Health',
    auth: 'public-or-admin',
    summary: 'Version, database and deployed remotes',
    cacheControl: NO_STORE,
    responses: {
      200: {
        description:
          "The database answers. `status` is `degraded` while a served release's error rate is at or above the threshold (RELEASE_ERROR_RATE_PERCENT over RELEASE_ERROR_MIN_PAGE_VIEWS page views in RELEASE_ERROR_WINDOW_MINUTES), else `ok`. Anyone gets each remote's version; an admin session (the panel's cookie) also gets whether its files and server module load, the release its pointer names, since when this instance serves it, and its page views and errors in the window (see the README).",
        body: { schema: healthSchema, example: { status: 'ok', version: '1.0.0', db: 'ok', remotes: { blog: { version: '1.4.0' } } } },
      },
      503: { description: 'The database does not answer.', body: { schema: healthSchema, example: { status: 'degraded', version: '1.0.0', db: 'down', remotes: {} } } },
    },
    handle: async (_input, { services }, ctx) => {
      const [health, admin] = await Promise.all([services.health.check(), isAdmin(ctx, services)]);
      ctx.status = health.db === 'ok' ? 200 : 503;
      return admin ? health : publicHealth(health);
    },
  }),
  endpoint({
    method: 'get',
    path: '/api/health/live',
    tag: 'Health',
    summary: 'Liveness for a load balancer: the process answers',
    cacheControl: NO_STORE,
    responses: { 200: { description: 'Alive.', body: { schema: z.object({ status: z.literal('ok') }), example: { status: 'ok' } } } },
    handle: () => ({ status: 'ok' }),
  }),
  // A 503 here is a state, not a fault: answered directly (the error envelope), so it raises no server-error alert.
  endpoint({
    method: 'get',
    path: '/api/health/ready',
    tag: 'Health',
    summary: 'Readiness: the database answers and the instance is not shutting down',
    cacheControl: NO_STORE,
    responses: {
      200: { description: 'Send traffic.', body: { schema: z.object({ status: z.literal('ready') }), example: { status: 'ready' } } },
      503: errorResponse('Do not send traffic (draining or database down).', error('draining', 'This instance is shutting down and finishing its requests.')),
    },
    handle: async (_input, { services, lifecycle }, ctx) => {
      if (lifecycle.draining()) {
        ctx.status = 503;
        return { error: { code: 'draining', message: 'This instance is shutting down and finishing its requests.' } };
      }
      if (!(await services.health.ping())) {
        ctx.status = 503;
        return { error: { code: 'database_unavailable', message: 'The database does not answer.' } };
      }
      return { status: 'ready' };
    },
  }),
]);

/** A live admin session; false without one, and when the sessions cannot be read (the database may be what is down). */
async function isAdmin(ctx: Context, services: RouteDeps<never, 'admin'>['services']): Promise<boolean> {
  const token = sessionToken(ctx);
  if (!token) return false;
  return Boolean(await services.admin.auth.authenticate(token).catch(() => undefined));
}
