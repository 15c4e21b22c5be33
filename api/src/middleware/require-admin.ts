import type { Context, Next } from 'koa';
import { ADMIN_MESSAGES, ADMIN_SESSION_COOKIE, ADMIN_SESSION_COOKIE_SECURE } from '@site/contracts/admin';
import type { ActiveSession, AdminAuthService } from '../admin/auth-service';

/** What `requireAdmin` leaves for the handlers. */
export interface AdminState {
  adminSession: ActiveSession;
}

/**
 * The session cookie's name for this request: `__Host-` prefixed when it came over https (`ctx.secure`, which trusts
 * X-Forwarded-Proto only with TRUST_PROXY). Only that name is read over https: accepting the plain one there too
 * would let a cookie planted over http or by a subdomain stand in for the locked one.
 */
export const sessionCookieName = (ctx: Context): string => (ctx.secure ? ADMIN_SESSION_COOKIE_SECURE : ADMIN_SESSION_COOKIE);

/** Reads the session cookie of a request (undefined when absent). */
export const sessionToken = (ctx: Context): string | undefined => ctx.cookies.get(sessionCookieName(ctx)) || undefined;

/**
 * Lets a request through only with a live admin session (cookie -> server-side session, not expired by age or
 * inactivity, not logged out); 401 JSON envelope otherwise. The session is in `ctx.state.adminSession`.
 */
export function requireAdmin(options: { auth: Pick<AdminAuthService, 'authenticate'> }) {
  return async function requireAdminSession(ctx: Context, next: Next) {
    const session = await options.auth.authenticate(sessionToken(ctx));
    if (!session) ctx.throw(401, ADMIN_MESSAGES.sessionRequired);
    (ctx.state as AdminState).adminSession = session;
    // Admin answers are personal: never stored by a browser or a proxy.
    ctx.set('Cache-Control', 'no-store');
    return next();
  };
}
