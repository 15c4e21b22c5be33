/*
 * Preview links of staged releases (issue 34). A link carries a token naming one app and one staged release of it, with
 * its expiry, signed with HMAC-SHA256 under a secret of the server's configuration (PREVIEW_SECRET; never read from the
 * database, so whoever can write the database cannot make one). Opening the link puts the token in a cookie of that
 * browser (HttpOnly, SameSite=Lax, Secure on an https site); each request then names the staged release it previews.
 * The token says which release may be shown; whether it is still staged, complete and signed by a trusted key is
 * checked again on every request (remote-registry.ts), so an expired link, a promoted or removed release, or one no
 * trusted key signs is never served from a cookie.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { PREVIEW_LINK_HOURS } from '@site/contracts/deploys';
import { REMOTE_NAMES, type RemoteName } from '@site/contracts/manifest';
import { RELEASE_NAME } from './release-format';

/** The cookie a preview link sets. */
export const PREVIEW_COOKIE = 'site_preview';
/** The query parameter of a preview link (`?preview=<token>`), and `?preview=off`, which leaves the preview. */
export const PREVIEW_PARAM = 'preview';
export const PREVIEW_OFF = 'off';
export const PREVIEW_LIFETIME_MS = PREVIEW_LINK_HOURS * 60 * 60_000;

export interface PreviewGrant {
  app: RemoteName;
  version: string;
  expiresAt: Date;
}

export interface PreviewTokens {
  /** A token for `app`'s staged release `version`, valid PREVIEW_LINK_HOURS from now. */
  issue(app: RemoteName, version: string): { token: string; expiresAt: Date };
  /** What a token grants, or why it grants nothing (bad signature, expired, malformed). Never throws. */
  read(token: string | undefined): { ok: true; grant: PreviewGrant } | { ok: false; reason: string };
}

const b64 = (buffer: Buffer) => buffer.toString('base64url');

/**
 * `secret`: PREVIEW_SECRET. Without one, a random secret of this process: links then work on this instance until it
 * restarts (app.ts says so in the log).
 */
export function createPreviewTokens(options: { secret: string | undefined; clock: () => Date }): PreviewTokens {
  const key = options.secret ? Buffer.from(options.secret, 'utf8') : randomBytes(32);
  const sign = (payload: string) => createHmac('sha256', key).update(`site-preview.v1.${payload}`).digest();
  return {
    issue(app, version) {
      const expiresAt = new Date(options.clock().getTime() + PREVIEW_LIFETIME_MS);
      const payload = b64(Buffer.from(JSON.stringify({ a: app, v: version, e: Math.floor(expiresAt.getTime() / 1000) })));
      return { token: `${payload}.${b64(sign(payload))}`, expiresAt };
    },
    read(token) {
      // A token is a few hundred characters; anything longer is not one of ours (and is not hashed).
      if (!token || token.length > 600) return { ok: false, reason: 'no preview token' };
      const dot = token.indexOf('.');
      if (dot <= 0) return { ok: false, reason: 'not a preview token' };
      const payload = token.slice(0, dot);
      const given = Buffer.from(token.slice(dot + 1), 'base64url');
      const expected = sign(payload);
      if (given.length !== expected.length || !timingSafeEqual(given, expected)) return { ok: false, reason: 'the preview link is not signed by this site' };
      let claims: { a?: unknown; v?: unknown; e?: unknown };
      try {
        claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as typeof claims;
      } catch {
        return { ok: false, reason: 'not a preview token' };
      }
      const { a: app, v: version, e: expires } = claims;
      if (typeof app !== 'string' || !(REMOTE_NAMES as readonly string[]).includes(app) || typeof version !== 'string' || !RELEASE_NAME.test(version) || typeof expires !== 'number') {
        return { ok: false, reason: 'not a preview token' };
      }
      const expiresAt = new Date(expires * 1000);
      if (expiresAt.getTime() <= options.clock().getTime()) return { ok: false, reason: `the preview link expired at ${expiresAt.toISOString()}` };
      return { ok: true, grant: { app: app as RemoteName, version, expiresAt } };
    },
  };
}
