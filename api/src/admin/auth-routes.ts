import type { Context } from 'koa';
import {
  ADMIN_MESSAGES,
  ADMIN_SESSION_COOKIE_SECURE,
  ADMIN_SESSION_MAX_AGE_MS,
  adminLoginRequestSchema,
  adminSessionSchema,
  adminSessionUpdateSchema,
  type AdminSession,
} from '@site/contracts/admin';
import { sessionCookieName, sessionToken, type AdminState } from '../middleware/require-admin';
import { DEV_OVERRIDE_COOKIE } from '../site/releases/dev-override-tokens';
import { setDevOverrideCookie } from '../site/render/dev-override';
import { defineEndpoints } from '../http/endpoint';
import { COMMON_ERRORS, error, errorResponse } from '../http/openapi-parts';

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

const EXAMPLE_SESSION = { authenticated: true, passwordConfigured: true, activeSection: 'posts', expiresAt: '2026-05-05T09:00:00.000Z' };
const sessionAnswer = (description: string) => ({ description, body: { schema: adminSessionSchema, example: EXAMPLE_SESSION } });

/**
 * Admin login, logout and the session probe:
 * `POST /api/admin/login` (no session; same-origin), `GET /api/admin/session` (no session needed: tells whether one
 * is live), `PUT /api/admin/session` (saves the active section), `POST /api/admin/logout` (deletes the session).
 */
export const adminAuthRoutes = defineEndpoints({ config: ['bodyLimit', 'publicOrigin'], services: ['admin'] }, (endpoint) => [
  endpoint({
    method: 'post',
    path: '/api/admin/login',
    tag: 'Admin',
    summary: 'Log in with the admin password; sets the session cookie',
    description: `Same-origin only. 5 failed logins per client address within 15 minutes lock the login (429 with Retry-After). Over https the cookie is \`${ADMIN_SESSION_COOKIE_SECURE}\` (HttpOnly, Secure, SameSite=Strict, Path=/).`,
    sameOrigin: 'first',
    cacheControl: 'no-store',
    // Read by the handler: without a configured password the answer says how to set one (503), whatever was typed.
    body: { schema: adminLoginRequestSchema, example: { password: 'correct horse battery staple' }, parse: false },
    responses: {
      200: { ...sessionAnswer('Logged in; `Set-Cookie` carries the session.'), headers: { 'Set-Cookie': 'The session cookie.' } },
      400: errorResponse('No password.', error('validation_failed', 'password: Password is required', [{ path: 'password', message: ADMIN_MESSAGES.passwordRequired }])),
      401: errorResponse('Wrong password.', error('invalid_password', ADMIN_MESSAGES.incorrectPassword)),
      429: errorResponse('Too many failed logins from this address.', error('rate_limited', ADMIN_MESSAGES.tooManyAttempts), COMMON_ERRORS[429].headers),
      503: errorResponse('No admin password is configured on the server.', error('admin_not_configured', ADMIN_MESSAGES.notConfigured)),
    },
    handle: async ({ body }, { services }, ctx) => {
      const auth = services.admin.auth;
      const { password } = auth.passwordConfigured ? adminLoginRequestSchema.parse(body ?? {}) : { password: '' };
      const { token, session } = await auth.login(password, ctx.ip);
      setSessionCookie(ctx, token);
      // A development override ends with the login: its code may be in a tab the admin uses, and it stays off until
      // the developer opens a new link (the confirmation page refuses while this session lives).
      if (ctx.cookies.get(DEV_OVERRIDE_COOKIE)) setDevOverrideCookie(ctx, null);
      return session satisfies AdminSession;
    },
  }),
  endpoint({
    method: 'get',
    path: '/api/admin/session',
    tag: 'Admin',
    auth: 'public-or-admin',
    summary: 'Whether a session is live (no session needed); a cookie of an ended session is cleared',
    cacheControl: 'no-store',
    responses: { 200: sessionAnswer('The session, or `authenticated: false`.') },
    handle: async (_input, { services }, ctx) => {
      const session = await services.admin.auth.authenticate(sessionToken(ctx));
      // A cookie of an expired or logged-out session is dropped from the browser too.
      if (!session && sessionToken(ctx)) setSessionCookie(ctx, null);
      return services.admin.auth.describe(session) satisfies AdminSession;
    },
  }),
  endpoint({
    method: 'put',
    path: '/api/admin/session',
    tag: 'Admin',
    auth: 'admin',
    summary: 'Save the active section of the admin panel in the session',
    body: { schema: adminSessionUpdateSchema, example: { activeSection: 'posts' } },
    responses: {
      200: sessionAnswer('The session.'),
      400: errorResponse('A field breaks a rule; `details` names each field and its rule.', error('validation_failed', 'activeSection: Invalid option', [{ path: 'activeSection', message: 'Invalid option' }])),
    },
    handle: async ({ body }, { services }, ctx) => (await services.admin.auth.setSection((ctx.state as AdminState).adminSession, body.activeSection)) satisfies AdminSession,
  }),
  endpoint({
    method: 'post',
    path: '/api/admin/logout',
    tag: 'Admin',
    auth: 'admin',
    summary: 'Log out: deletes the session and clears the cookie',
    responses: { 204: { description: 'Logged out.' } },
    handle: async (_input, { services }, ctx) => {
      await services.admin.auth.logout(sessionToken(ctx));
      setSessionCookie(ctx, null);
    },
  }),
]);
