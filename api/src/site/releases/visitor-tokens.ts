/*
 * What the server signs for a visitor (issue 51, item 6), so that a browser's word about releases can be checked:
 * - the canary bucket cookie (`<id>.<mac>`): a client cannot pick its side of a canary's split by writing an id of its
 *   own; an unsigned or forged value is ignored and the server draws one.
 * - the page-view token: issued with a page's releases (`GET /page-token.json`, once per page load), naming every
 *   app's release that browser gets, its bucket, when it was issued and a random id. A `remote_view` or `remote_error`
 *   counts only with a valid token, only against a release the token names, and only a few times per token
 *   (events/release-report-gate.ts).
 * - the reporter: a keyed hash of a client's address (IPv6 per /64), the same on every instance, so that the distinct
 *   visitors behind a release's browser errors can be counted without storing an address (release-errors/).
 * HMAC-SHA256 under one key shared by every instance (app.ts: derived from PREVIEW_SECRET, else the random key
 * migration 0038 stored in the database), with a label per use so a token of one kind is never read as the other.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { REMOTE_NAMES, type RemoteName } from '@site/contracts/manifest';
import { RELEASE_NAME } from './release-format';
import { readVisitorTokenKey, type ReleasesDb } from './releases-repository';

/** How long a page-view token counts: a page left open longer reports nothing more until it is loaded again. */
export const PAGE_TOKEN_LIFETIME_MS = 30 * 60_000;
/** A bucket id: 16 random bytes, base64url (22 characters). */
const BUCKET_ID = /^[\w-]{16,64}$/;

export interface PageViewToken {
  /** The token's random id: what the per-token caps are kept by. */
  id: string;
  /** The release of each app the page that asked for it was given. */
  releases: Partial<Record<RemoteName, string>>;
  /** The visitor's bucket id when a canary ran, else null. */
  bucket: string | null;
  issuedAt: number;
  /** When it stops counting (ms). */
  expiresAt: number;
}

export interface VisitorTokens {
  /** The cookie value of a bucket id: `<id>.<mac>`. */
  signBucket(id: string): string;
  /** The bucket id of a signed cookie value, or undefined (missing, malformed, not signed by this site). */
  readBucket(cookie: string | undefined): string | undefined;
  issuePageToken(releases: Partial<Record<RemoteName, string>>, bucket: string | null): string;
  /** The token's claims, or why it counts for nothing. Never throws. */
  readPageToken(token: string | undefined): { ok: true; token: PageViewToken } | { ok: false; reason: string };
  /** A client key's reporter id (16 bytes of an HMAC, base64url): not reversible to the address without the key. */
  reporterOf(clientKey: string): string;
}

const b64 = (buffer: Buffer) => buffer.toString('base64url');

function equal(given: string, expected: Buffer): boolean {
  const bytes = Buffer.from(given, 'base64url');
  return bytes.length === expected.length && timingSafeEqual(bytes, expected);
}

export function createVisitorTokens(options: { key: Buffer | string; clock: () => Date; newId?: () => string }): VisitorTokens {
  const key = typeof options.key === 'string' ? Buffer.from(options.key, 'utf8') : options.key;
  const mac = (label: string, text: string) => createHmac('sha256', key).update(`${label}.${text}`).digest();
  const newId = options.newId ?? (() => b64(randomBytes(12)));
  return {
    // 16 bytes of the MAC are plenty for a cookie that only chooses a canary's side.
    signBucket: (id) => `${id}.${b64(mac('site-bucket.v1', id).subarray(0, 16))}`,
    readBucket(cookie) {
      if (!cookie || cookie.length > 200) return undefined;
      const dot = cookie.lastIndexOf('.');
      if (dot <= 0) return undefined;
      const id = cookie.slice(0, dot);
      if (!BUCKET_ID.test(id)) return undefined;
      return equal(cookie.slice(dot + 1), mac('site-bucket.v1', id).subarray(0, 16)) ? id : undefined;
    },
    reporterOf: (clientKey) => b64(mac('site-reporter.v1', clientKey).subarray(0, 16)),
    issuePageToken(releases, bucket) {
      const payload = b64(Buffer.from(JSON.stringify({ r: releases, b: bucket, t: options.clock().getTime(), n: newId() })));
      return `${payload}.${b64(mac('site-page-view.v1', payload))}`;
    },
    readPageToken(token) {
      if (!token) return { ok: false, reason: 'no page-view token' };
      if (token.length > 1000) return { ok: false, reason: 'not a page-view token' };
      const dot = token.indexOf('.');
      if (dot <= 0) return { ok: false, reason: 'not a page-view token' };
      const payload = token.slice(0, dot);
      if (!equal(token.slice(dot + 1), mac('site-page-view.v1', payload))) return { ok: false, reason: 'the page-view token is not signed by this site' };
      let claims: { r?: unknown; b?: unknown; t?: unknown; n?: unknown };
      try {
        claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as typeof claims;
      } catch {
        return { ok: false, reason: 'not a page-view token' };
      }
      const { r, b, t, n } = claims;
      if (typeof t !== 'number' || typeof n !== 'string' || (b !== null && typeof b !== 'string') || typeof r !== 'object' || r === null) return { ok: false, reason: 'not a page-view token' };
      const releases: Partial<Record<RemoteName, string>> = {};
      for (const [app, version] of Object.entries(r)) {
        if ((REMOTE_NAMES as readonly string[]).includes(app) && typeof version === 'string' && RELEASE_NAME.test(version)) releases[app as RemoteName] = version;
      }
      const age = options.clock().getTime() - t;
      // A little slack into the future: instances' clocks differ by a second or two.
      if (age > PAGE_TOKEN_LIFETIME_MS || age < -60_000) return { ok: false, reason: 'the page-view token expired' };
      return { ok: true, token: { id: n, releases, bucket: b, issuedAt: t, expiresAt: t + PAGE_TOKEN_LIFETIME_MS } };
    },
  };
}

/**
 * The signing key: derived from PREVIEW_SECRET when it is configured (the same on every instance that shares the
 * configuration), else the random key migration 0038 stored in the database (the same on every instance of it).
 */
export async function loadVisitorTokenKey(db: ReleasesDb, previewSecret: string | undefined): Promise<Buffer> {
  if (previewSecret) return createHmac('sha256', previewSecret).update('site-visitor-tokens.v1').digest();
  return readVisitorTokenKey(db);
}
