/*
 * Development overrides (issue 52): a link that makes one browser load one remote from a developer's own server (the
 * entry URL: https, or http on loopback), the way import-map-overrides does. The link carries a token naming the app,
 * the entry URL and the expiry, signed with HMAC-SHA256 under PREVIEW_SECRET (the same secret as preview links, under
 * another label, so neither token passes for the other). Opening it asks the person to confirm (site/render/dev-override.ts);
 * confirming puts the token in a cookie of that browser; each request then reads it again (release-choice.ts), so an
 * expired or foreign cookie grants nothing.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { DEV_OVERRIDE_DEFAULT_HOURS, devOverrideEntryIsLoopback, devOverrideEntryRefusal } from '@site/contracts/deploys';
import { REMOTE_NAMES, type RemoteName } from '@site/contracts/manifest';

/** The cookie a development override link sets. */
export const DEV_OVERRIDE_COOKIE = 'site_dev_override';
/** The query parameter of the link (`?dev-override=<token>`), and `?dev-override=off`, which leaves the override. */
export const DEV_OVERRIDE_PARAM = 'dev-override';
export const DEV_OVERRIDE_OFF = 'off';

export interface DevOverrideGrant {
  app: RemoteName;
  /** The remote's remoteEntry.js the shell loads instead of the served release's. */
  entryUrl: string;
  /** entryUrl's origin: the only one the page's CSP adds. */
  origin: string;
  expiresAt: Date;
}

export interface DevOverrideTokens {
  /** A token for `app` loaded from `entryUrl` (checked by the caller: devOverrideEntryRefusal), valid `hours` from now. */
  issue(app: RemoteName, entryUrl: string): { token: string; expiresAt: Date };
  /** What a token grants, or why it grants nothing (bad signature, expired, malformed). Never throws. */
  read(token: string | undefined): { ok: true; grant: DevOverrideGrant } | { ok: false; reason: string };
}

const b64 = (buffer: Buffer) => buffer.toString('base64url');

/**
 * `secret`: PREVIEW_SECRET (without one, a random secret of this process); `hours`: DEV_OVERRIDE_HOURS; `loopbackOnly`
 * (RELEASE_TRUSTED_KEYS is set): a token naming an entry off the developer's computer grants nothing, so one issued
 * before signing was turned on stops working at once.
 */
export function createDevOverrideTokens(options: { secret: string | undefined; clock: () => Date; hours?: number; loopbackOnly?: boolean }): DevOverrideTokens {
  const key = options.secret ? Buffer.from(options.secret, 'utf8') : randomBytes(32);
  const lifetimeMs = (options.hours ?? DEV_OVERRIDE_DEFAULT_HOURS) * 3_600_000;
  const sign = (payload: string) => createHmac('sha256', key).update(`site-dev-override.v1.${payload}`).digest();
  return {
    issue(app, entryUrl) {
      const expiresAt = new Date(options.clock().getTime() + lifetimeMs);
      const payload = b64(Buffer.from(JSON.stringify({ a: app, u: entryUrl, e: Math.floor(expiresAt.getTime() / 1000) })));
      return { token: `${payload}.${b64(sign(payload))}`, expiresAt };
    },
    read(token) {
      // The entry URL is at most 500 characters: a token is under a kilobyte; anything longer is not one of ours.
      if (!token || token.length > 1200) return { ok: false, reason: 'no development override token' };
      const dot = token.indexOf('.');
      if (dot <= 0) return { ok: false, reason: 'not a development override token' };
      const payload = token.slice(0, dot);
      const given = Buffer.from(token.slice(dot + 1), 'base64url');
      const expected = sign(payload);
      if (given.length !== expected.length || !timingSafeEqual(given, expected)) return { ok: false, reason: 'the development override link is not signed by this site' };
      let claims: { a?: unknown; u?: unknown; e?: unknown };
      try {
        claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as typeof claims;
      } catch {
        return { ok: false, reason: 'not a development override token' };
      }
      const { a: app, u: entryUrl, e: expires } = claims;
      if (typeof app !== 'string' || !(REMOTE_NAMES as readonly string[]).includes(app) || typeof entryUrl !== 'string' || devOverrideEntryRefusal(entryUrl) || typeof expires !== 'number') {
        return { ok: false, reason: 'not a development override token' };
      }
      const expiresAt = new Date(expires * 1000);
      if (expiresAt.getTime() <= options.clock().getTime()) return { ok: false, reason: `the development override expired at ${expiresAt.toISOString()}` };
      if (options.loopbackOnly && !devOverrideEntryIsLoopback(entryUrl)) {
        return { ok: false, reason: "this site takes only signed releases: a development override may load code only from the developer's own computer (localhost)" };
      }
      return { ok: true, grant: { app: app as RemoteName, entryUrl, origin: new URL(entryUrl).origin, expiresAt } };
    },
  };
}
