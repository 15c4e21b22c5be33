import type { Context } from 'koa';
import {
  ADMIN_SESSION_MAX_AGE_MS,
  adminLoginRequestSchema,
  adminSessionUpdateSchema,
  type AdminSession,
} from '@site/contracts/admin';
import { jsonBody } from '../middleware/json-body';
import { sessionCookieName, sessionToken, type AdminState } from '../middleware/require-admin';
import { adminGuard } from './admin-guard';
import { defineRoutes } from './route-module';

/** The session cookie: HttpOnly, SameSite=Strict, Path=/, no Domain; over https Secure and named `__Host-…`. */
function setSessionCookie(ctx: Context, token: string | null) {
  ctx.cookies.set(sessionCookieName(ctx), token ?? '', {
    httpOnly: true,
    sameSite: 'strict',
    path: '/',
    secure: ctx.secure,
    overwrite: true,
    ...(token ? { maxAge: ADMIN_SESSION_MAX_AGE_MS } : { expires: new Date(0) }),
  });
}

/**
 * Admin login, logout and the session probe:
 * `POST /api/admin/login` (no session; same-origin), `GET /api/admin/session` (no session needed: tells whether one
 * is live), `PUT /api/admin/session` (saves the active section), `POST /api/admin/logout` (deletes the session).
 */
export const adminAuthRoutes = defineRoutes({ config: ['bodyLimit', 'publicOrigin'], services: ['admin'] }, (router, deps) => {
  const { config, services } = deps;
  const { guard, csrf } = adminGuard(deps);
  const auth = services.admin.auth;

  router.post('/api/admin/login', csrf, jsonBody({ limit: config.bodyLimit }), async (ctx) => {
    ctx.set('Cache-Control', 'no-store');
    // Without a configured password the answer says how to set one, whatever was typed.
    const { password } = auth.passwordConfigured ? adminLoginRequestSchema.parse(ctx.request.body ?? {}) : { password: '' };
    const { token, session } = await auth.login(password, ctx.ip);
    setSessionCookie(ctx, token);
    ctx.body = session satisfies AdminSession;
  });

  router.get('/api/admin/session', async (ctx) => {
    ctx.set('Cache-Control', 'no-store');
    const session = await auth.authenticate(sessionToken(ctx));
    // A cookie of an expired or logged-out session is dropped from the browser too.
    if (!session && sessionToken(ctx)) setSessionCookie(ctx, null);
    ctx.body = auth.describe(session) satisfies AdminSession;
  });

  router.put('/api/admin/session', ...guard, jsonBody({ limit: config.bodyLimit }), async (ctx) => {
    const { activeSection } = adminSessionUpdateSchema.parse(ctx.request.body ?? {});
    ctx.body = (await auth.setSection((ctx.state as AdminState).adminSession, activeSection)) satisfies AdminSession;
  });

  router.post('/api/admin/logout', ...guard, async (ctx) => {
    await auth.logout(sessionToken(ctx));
    setSessionCookie(ctx, null);
    ctx.status = 204;
  });
});
