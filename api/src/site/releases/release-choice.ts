/*
 * Which release of each app one request gets (issue 34): the one function that decides it. Every visitor gets the
 * served releases (remote-registry.ts: the pointer, else the last good, else the history's stack), except:
 * - a browser with a preview link's cookie gets the staged release it names for that app (a preview wins over a canary);
 * - while a canary runs (release-canaries.ts), a share of visitors gets its release of that app: the visitor's bucket
 *   cookie hashed with the canary's id says which, the same on every page, every visit and every instance.
 * What it returns is all the page, the remotes map, the remote's files and the render cache read of the choice.
 */
import type { RemoteName } from '@site/contracts/manifest';
import { PREVIEW_COOKIE, type PreviewGrant, type PreviewTokens } from './preview-tokens';
import { BUCKET_COOKIE, canarySlot, isBucketId, newBucketId, type Canary } from './release-canaries';
import type { VisitorTokens } from './visitor-tokens';

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
  /** The canaries running now (release-canaries.ts's cache: no query on the request path). */
  canaries?: () => readonly Canary[];
  /** Draws a new visitor's bucket (random; tests pass their own). */
  newBucket?: () => string;
  /**
   * Signs the bucket cookie and reads it back (visitor-tokens.ts): a value the server did not sign is ignored and a
   * bucket drawn, so a client cannot choose its side of a split. Without it (tests of the split alone) the id is the value.
   */
  buckets?: Pick<VisitorTokens, 'signBucket' | 'readBucket'>;
}): ChooseReleases {
  const draw = options.newBucket ?? newBucketId;
  const read = (cookie: string | undefined) => (options.buckets ? options.buckets.readBucket(cookie) : isBucketId(cookie) ? cookie : undefined);
  const sign = (id: string) => (options.buckets ? options.buckets.signBucket(id) : id);
  return function chooseReleases(request) {
    const running = options.canaries?.() ?? [];
    const cookie = request.cookies.get(PREVIEW_COOKIE);
    if (!cookie && running.length === 0) return SERVED_RELEASES;
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
    return {
      overrides,
      ...(preview ? { preview } : {}),
      ...(clearCookie ? { clearCookie } : {}),
      ...(running.length > 0 ? { canaries: true as const } : {}),
      ...(newBucket ? { newBucket } : {}),
      ...(bucket ? { bucket } : {}),
    };
  };
}

/** A stable text of a choice's overrides (cache keys): empty for the served releases. */
export const choiceKey = (choice: ReleaseChoice): string =>
  Object.entries(choice.overrides)
    .map(([app, o]) => `${app}@${o!.version}:${o!.why}`)
    .sort()
    .join(',');
