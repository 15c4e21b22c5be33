/*
 * Which release of each app one request gets (issue 34): the one function that decides it. Every visitor gets the
 * served releases (remote-registry.ts: the pointer, else the last good, else the history's stack), except:
 * - a browser with a preview link's cookie gets the staged release it names for that app (a preview wins over a canary);
 * - while a canary runs (a row of the site's database: canaries-repository.ts), a share of visitors gets its release of
 *   that app: the visitor's bucket (a random id in a long-lived cookie, nothing personal) hashed with the canary's id
 *   to a slot from 0 to 99, slots below the canary's percent getting its release. The same visitor gets the same
 *   release on every page, on the next visit and from any instance; raising the share keeps those already in it;
 *   another canary draws another sample. The canary's release stays staged while it runs (served by the same path as
 *   a preview: remote-registry.ts's snapshotFor), and becomes a release like any other when promoted to everyone.
 * What it returns is all the page, the remotes map, the remote's files and the render cache read of the choice. Each
 * instance keeps the running canaries in memory for it (createCanaryCache: no query on the request path), read again
 * when this instance changes one, and on PostgreSQL by release-sync.ts on every NOTIFY and poll.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { RemoteName } from '@site/contracts/manifest';
import type { Canary } from '../../deploys/deployer-port';
import type { Logger } from '../../lib/logger';
import { readRunningCanaries, type CanariesDb } from './canaries-repository';
import { PREVIEW_COOKIE, type PreviewGrant, type PreviewTokens } from './preview-tokens';
import { DEV_OVERRIDE_COOKIE, type DevOverrideGrant, type DevOverrideTokens } from './dev-override-tokens';
import type { VisitorTokens } from './visitor-tokens';

/** The visitor's bucket: a random id, drawn on the first answer that needs it while a canary runs. */
export const BUCKET_COOKIE = 'site_bucket';
/** How long the bucket cookie lasts: a visitor coming back within a year gets the same release. */
export const BUCKET_COOKIE_DAYS = 365;
/** What a bucket id looks like (16 random bytes, base64url: 22 characters); anything else is drawn again. */
const BUCKET_ID = /^[\w-]{16,64}$/;

export const newBucketId = (): string => randomBytes(16).toString('base64url');
export const isBucketId = (value: string | undefined): value is string => value !== undefined && BUCKET_ID.test(value);

/**
 * The slot (0 to 99) of a visitor's bucket in a canary: the first 32 bits of SHA-256(canary id, bucket) modulo 100
 * (a bias of 96 in 2^32: nothing a share of visitors shows). A visitor is in the canary when the slot is below its percent.
 */
export function canarySlot(canaryId: string, bucket: string): number {
  return createHash('sha256').update(`${canaryId}\n${bucket}`).digest().readUInt32BE(0) % 100;
}

/** Why a request gets a release other than the served one. */
export type ChoiceReason = 'preview' | 'canary';

export interface ReleaseChoice {
  /** Per remote, the release this request gets instead of the served one. Empty: the served releases. */
  readonly overrides: Readonly<Partial<Record<RemoteName, { readonly version: string; readonly why: ChoiceReason }>>>;
  /** The preview this browser is in (its cookie), said on every page with a link to leave it. */
  readonly preview?: PreviewGrant;
  /** The request carried a preview cookie that grants nothing (expired, not ours): the answer clears it. */
  readonly clearCookie?: string;
  /**
   * A canary runs (of any remote): what the page holds depends on the visitor's bucket (the remotes map of every page
   * names every remote's release), so the answer is for this browser alone, like a preview's (never indexed out of it).
   */
  readonly canaries?: true;
  /** The bucket cookie's value drawn for a visitor who had none (or a malformed or unsigned one): the answer sets it. */
  readonly newBucket?: string;
  /** The visitor's bucket id while a canary runs (a page-view token names it). */
  readonly bucket?: string;
  /**
   * A development override (dev-override-tokens.ts): this browser loads `app` from the developer's entry URL, rendered
   * in the browser alone; it wins over a preview or a canary of that app. Its pages are never kept by the render cache.
   */
  readonly dev?: DevOverrideGrant;
  /** The request carried a development override cookie that grants nothing (expired, not ours): the answer clears it. */
  readonly clearDevCookie?: string;
}

/** What every visitor gets: the served releases. */
export const SERVED_RELEASES: ReleaseChoice = Object.freeze({ overrides: Object.freeze({}) });

/** What the choice reads of a request (Koa's ctx.cookies fits). */
export interface ChoiceRequest {
  cookies: { get(name: string): string | undefined };
}

export type ChooseReleases = (request: ChoiceRequest) => ReleaseChoice;

/**
 * request -> the release of each app it gets. Without a preview cookie and with no canary running, SERVED_RELEASES
 * (nothing is computed, and no cookie is read or set).
 */
export function createReleaseChooser(options: {
  previews: PreviewTokens;
  /** The canaries running now (createCanaryCache below: no query on the request path). */
  canaries?: () => readonly Canary[];
  /** Draws a new visitor's bucket (random; tests pass their own). */
  newBucket?: () => string;
  /**
   * Signs the bucket cookie and reads it back (visitor-tokens.ts): a value the server did not sign is ignored and a
   * bucket drawn, so a client cannot choose its side of a split. Without it (tests of the split alone) the id is the value.
   */
  buckets?: Pick<VisitorTokens, 'signBucket' | 'readBucket'>;
  /** Reads development override cookies; without it they are ignored. */
  devOverrides?: DevOverrideTokens;
}): ChooseReleases {
  const draw = options.newBucket ?? newBucketId;
  const read = (cookie: string | undefined) => (options.buckets ? options.buckets.readBucket(cookie) : isBucketId(cookie) ? cookie : undefined);
  const sign = (id: string) => (options.buckets ? options.buckets.signBucket(id) : id);
  return function chooseReleases(request) {
    const running = options.canaries?.() ?? [];
    const cookie = request.cookies.get(PREVIEW_COOKIE);
    const devCookie = options.devOverrides ? request.cookies.get(DEV_OVERRIDE_COOKIE) : undefined;
    if (!cookie && !devCookie && running.length === 0) return SERVED_RELEASES;
    const overrides: Partial<Record<RemoteName, { version: string; why: ChoiceReason }>> = {};
    let preview: PreviewGrant | undefined;
    let clearCookie: string | undefined;
    if (cookie) {
      const read = options.previews.read(cookie);
      if (read.ok) {
        preview = read.grant;
        overrides[read.grant.app] = { version: read.grant.version, why: 'preview' };
      } else {
        clearCookie = read.reason;
      }
    }
    let newBucket: string | undefined;
    let bucket: string | undefined;
    if (running.length > 0) {
      bucket = read(request.cookies.get(BUCKET_COOKIE));
      if (!bucket) newBucket = sign((bucket = draw()));
      for (const canary of running) {
        if (overrides[canary.app]) continue;
        if (canarySlot(canary.id, bucket) < canary.percent) overrides[canary.app] = { version: canary.version, why: 'canary' };
      }
    }
    let dev: DevOverrideGrant | undefined;
    let clearDevCookie: string | undefined;
    if (devCookie) {
      const read = options.devOverrides!.read(devCookie);
      if (read.ok) {
        dev = read.grant;
        // The developer's build replaces whatever this browser would get of that app.
        delete overrides[dev.app];
      } else {
        clearDevCookie = read.reason;
      }
    }
    return {
      overrides,
      ...(preview ? { preview } : {}),
      ...(clearCookie ? { clearCookie } : {}),
      ...(running.length > 0 ? { canaries: true as const } : {}),
      ...(newBucket ? { newBucket } : {}),
      ...(bucket ? { bucket } : {}),
      ...(dev ? { dev } : {}),
      ...(clearDevCookie ? { clearDevCookie } : {}),
    };
  };
}

/** A stable text of a choice's overrides (cache keys): empty for the served releases. */
export const choiceKey = (choice: ReleaseChoice): string =>
  Object.entries(choice.overrides)
    .map(([app, o]) => `${app}@${o!.version}:${o!.why}`)
    .concat(choice.dev ? [`${choice.dev.app}@${choice.dev.entryUrl}:dev`] : [])
    .sort()
    .join(',');

export interface CanaryCache {
  /** The canaries running as last read (the request path's: no query). */
  running(): readonly Canary[];
  /** Reads them again; a failed read keeps what was read last (and logs why). */
  refresh(): Promise<void>;
}

/** The running canaries of this instance's database, kept in memory between refreshes. */
export function createCanaryCache(db: CanariesDb, logger?: Logger): CanaryCache {
  let running: readonly Canary[] = Object.freeze([]);
  // One read at a time; a refresh asked during one reads again after it (what it reads was written before it asked).
  let reading: Promise<void> | undefined;
  let again: Promise<void> | undefined;
  async function read(): Promise<void> {
    try {
      const next = await readRunningCanaries(db);
      const before = running.map((c) => `${c.id}:${c.percent}`).join(',');
      running = Object.freeze(next);
      const after = running.map((c) => `${c.id}:${c.percent}`).join(',');
      if (before !== after) logger?.info({ canaries: running.map((c) => `${c.app} ${c.version} ${c.percent}%`) }, running.length ? 'canaries running' : 'no canary running');
    } catch (error) {
      logger?.warn({ err: error }, 'could not read the running canaries: keeping the last ones read');
    }
  }
  function start(): Promise<void> {
    const run = read().finally(() => {
      if (reading === run) reading = undefined;
    });
    reading = run;
    return run;
  }
  return {
    running: () => running,
    refresh() {
      if (!reading) return start();
      again ??= reading.then(() => {
        again = undefined;
        return start();
      });
      return again;
    },
  };
}
