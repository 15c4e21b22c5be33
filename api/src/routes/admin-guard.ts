import type { Middleware } from 'koa';
import { requireAdmin } from '../middleware/require-admin';
import { sameOrigin } from '../middleware/same-origin';
import type { RouteDeps } from './route-module';

/**
 * The middleware every admin route starts with: a same-site Origin for state-changing requests (CSRF, 403), then a
 * live admin session (401). The admin route files put `...guard` first on each route; a test walks the router and
 * checks that every /api/admin route but the login and the session probe answers 401 without a session.
 */
export function adminGuard({ config, services }: RouteDeps<'publicOrigin', 'admin'>): { guard: Middleware[]; csrf: Middleware } {
  const csrf = sameOrigin({ publicOrigin: config.publicOrigin });
  return { guard: [csrf, requireAdmin({ auth: services.admin.auth })], csrf };
}
