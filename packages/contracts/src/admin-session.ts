import { z } from 'zod';

/** The admin API's session (`/api/admin/login`, `/session`, `/logout`): its lifetime, cookie, sections and messages. */

// ---------------------------------------------------------------------------------------------- session

/** Spec section 9: session lifetime and inactivity timeout, 24 hours. */
export const ADMIN_SESSION_MAX_AGE_MS = 86_400_000;
export const ADMIN_SESSION_IDLE_MS = 86_400_000;
/** Name of the session cookie over plain http (HttpOnly, SameSite=Strict, Path=/). */
export const ADMIN_SESSION_COOKIE = 'admin_session';
/**
 * Its name over https (then also Secure). Browsers accept a `__Host-` cookie only when it is Secure, Path=/ and has no
 * Domain, so a sibling subdomain or a plain-http answer cannot plant or shadow the admin session.
 */
export const ADMIN_SESSION_COOKIE_SECURE = `__Host-${ADMIN_SESSION_COOKIE}`;
/** 5 failed logins per client address within 15 minutes -> 429 with Retry-After. */
export const LOGIN_MAX_FAILURES = 5;
export const LOGIN_FAILURE_WINDOW_MS = 15 * 60_000;

export const ADMIN_SECTIONS = ['dashboard', 'alerts', 'posts', 'integrations', 'media', 'deploys'] as const;
export type AdminSection = (typeof ADMIN_SECTIONS)[number];
export const adminSectionSchema = z.enum(ADMIN_SECTIONS);

/** Exact strings of the spec (section 8) and of the login answers. */
export const ADMIN_MESSAGES = {
  incorrectPassword: 'Incorrect password',
  passwordRequired: 'Password is required',
  /** 503 `admin_not_configured` when neither ADMIN_PASSWORD nor ADMIN_PASSWORD_HASH is set. */
  notConfigured:
    'The admin password is not set. Set ADMIN_PASSWORD, or ADMIN_PASSWORD_HASH (from `npm run hash-password`), in the server environment and restart it.',
  tooManyAttempts: 'Too many failed login attempts. Please wait and try again later.',
  sessionRequired: 'Please log in to the admin panel.',
  crossOrigin: 'This request did not come from this site.',
  postNotFound: 'Post not found',
  leadNotFound: 'Message not found',
  alertNotFound: 'Alert not found',
  postConflict: 'This post was changed elsewhere since you opened it. Reload it to see the latest version.',
  notAvailable: 'not available on this host',
} as const;

/** `POST /api/admin/login` body. The field is required (spec section 5). */
export const adminLoginRequestSchema = z.object({
  password: z
    .string({ error: ADMIN_MESSAGES.passwordRequired })
    .min(1, { error: ADMIN_MESSAGES.passwordRequired })
    .max(1024, { error: 'Password must be at most 1024 characters' }),
});
export type AdminLoginRequest = z.infer<typeof adminLoginRequestSchema>;

/**
 * `GET /api/admin/session` (no session needed), also the answer of `POST /api/admin/login` (200, sets the
 * cookie) and of `PUT /api/admin/session`. `passwordConfigured: false` means no login can succeed: the gate
 * shows `ADMIN_MESSAGES.notConfigured`. Login failures: 400 `validation_failed`, 401 `invalid_password`
 * ('Incorrect password'), 429 `rate_limited` (+ `Retry-After` seconds), 503 `admin_not_configured`.
 */
export const adminSessionSchema = z.object({
  authenticated: z.boolean(),
  passwordConfigured: z.boolean(),
  /** The section saved in the session (null when logged out). */
  activeSection: adminSectionSchema.nullable(),
  /** ISO time the session ends at the latest (age or inactivity, whichever is first); null when logged out. */
  expiresAt: z.string().nullable(),
});
export type AdminSession = z.infer<typeof adminSessionSchema>;

/** `PUT /api/admin/session` body: saves the active section. Answers `adminSessionSchema`. */
export const adminSessionUpdateSchema = z.object({ activeSection: adminSectionSchema });
export type AdminSessionUpdate = z.infer<typeof adminSessionUpdateSchema>;

// `POST /api/admin/logout`: deletes the session server-side, clears the cookie, answers 204.
