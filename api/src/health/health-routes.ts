import type { Context } from 'koa';
import { z } from 'zod';
import { healthSchema } from '@site/contracts/manifest';
import { sessionToken } from '../middleware/require-admin';
import { DATABASE_RETRY_AFTER_SECONDS, DATABASE_UNAVAILABLE_CODE, DATABASE_UNAVAILABLE_MESSAGE, publicHealth } from './health-service';
import { defineEndpoints } from '../http/endpoint';
import { error, errorResponse } from '../http/openapi-parts';
import type { RouteDeps } from '../http/route-module';

const NO_STORE = 'no-store';

/**
 * `GET /api/health`: API version, database reachability and the deployed remotes' versions (503 `down` naming the
 * database when it does not answer); with an admin session, also whether each remote's files and server module load,
 * why not, and the release refused in favour of the last known good. For a load balancer (docs/operating.md, "When the
 * database fails"): `GET /api/health/live` (liveness: the process answers, touching nothing else; restart it when this
 * fails) and `GET /api/health/ready` (readiness: this instance can serve; route traffic to it only while this is 200).
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
      503: {
        description: 'The database does not answer (a ping on a connection of its own, 2 s at most): `status` is `down` and `down` names it. Public pages already rendered are still served meanwhile.',
        body: { schema: healthSchema, example: { status: 'down', version: '1.0.0', db: 'down', down: ['database'], remotes: {} } },
      },
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
    description: 'Touches neither the database nor anything else the process depends on: a database outage never gets instances restarted (that would not bring it back). Restart the instance when this fails.',
    cacheControl: NO_STORE,
    responses: { 200: { description: 'Alive.', body: { schema: z.object({ status: z.literal('ok') }), example: { status: 'ok' } } } },
    handle: () => ({ status: 'ok' }),
  }),
  // A 503 here is a state, not a fault: answered directly (the error envelope), so it raises no server-error alert.
  endpoint({
    method: 'get',
    path: '/api/health/ready',
    tag: 'Health',
    summary: 'Readiness: this instance can serve (not shutting down, the database not away for long)',
    description:
      'Route traffic to this instance while this is 200. It fails when the instance is shutting down (`draining`), or when the database has answered nothing, neither a statement nor a ping on a connection of its own, for READY_DB_GRACE_MS (default 30 s; `database_unavailable`). A slow query, a locked table or a full connection pool never fails it: those are answered 503 per request, and every instance shares the database, so pulling them all would serve nothing, not even the cached pages.',
    cacheControl: NO_STORE,
    responses: {
      200: { description: 'Send traffic.', body: { schema: z.object({ status: z.literal('ready') }), example: { status: 'ready' } } },
      503: errorResponse(
        'Do not send traffic: draining, or the database unreachable for longer than READY_DB_GRACE_MS (`database_unavailable`, with Retry-After).',
        error('draining', 'This instance is shutting down and finishing its requests.'),
      ),
    },
    handle: async (_input, { services, lifecycle }, ctx) => {
      if (lifecycle.draining()) {
        ctx.status = 503;
        return { error: { code: 'draining', message: 'This instance is shutting down and finishing its requests.' } };
      }
      if (!(await services.health.ready())) {
        ctx.status = 503;
        ctx.set('Retry-After', String(DATABASE_RETRY_AFTER_SECONDS));
        return { error: { code: DATABASE_UNAVAILABLE_CODE, message: DATABASE_UNAVAILABLE_MESSAGE } };
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
