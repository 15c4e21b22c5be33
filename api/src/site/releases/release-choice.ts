/*
 * Which release of each app one request gets (issue 34): the one function that decides it. Every visitor gets the
 * served releases (remote-registry.ts: the pointer, else the last good, else the history's stack); a browser with a
 * preview link's cookie gets the staged release it names for that app and the served releases of the others.
 * A canary extends this function (a share of visitors, sticky per visitor, gets the new release of an app): what it
 * returns is all the page, the remotes map, the remote's files and the render cache read of the choice.
 */
import type { RemoteName } from '@site/contracts/manifest';
import { PREVIEW_COOKIE, type PreviewGrant, type PreviewTokens } from './preview-tokens';

/** Why a request gets a release other than the served one. */
export type ChoiceReason = 'preview';

export interface ReleaseChoice {
  /** Per remote, the release this request gets instead of the served one. Empty: the served releases. */
  readonly overrides: Readonly<Partial<Record<RemoteName, { readonly version: string; readonly why: ChoiceReason }>>>;
  /** The preview this browser is in (its cookie), said on every page with a link to leave it. */
  readonly preview?: PreviewGrant;
  /** The request carried a preview cookie that grants nothing (expired, not ours): the answer clears it. */
  readonly clearCookie?: string;
}

/** What every visitor gets: the served releases. */
export const SERVED_RELEASES: ReleaseChoice = Object.freeze({ overrides: Object.freeze({}) });

/** What the choice reads of a request (Koa's ctx.cookies fits). */
export interface ChoiceRequest {
  cookies: { get(name: string): string | undefined };
}

export type ChooseReleases = (request: ChoiceRequest) => ReleaseChoice;

/** request -> the release of each app it gets. Without a preview cookie, SERVED_RELEASES (nothing is computed). */
export function createReleaseChooser(options: { previews: PreviewTokens }): ChooseReleases {
  return function chooseReleases(request) {
    const cookie = request.cookies.get(PREVIEW_COOKIE);
    if (!cookie) return SERVED_RELEASES;
    const read = options.previews.read(cookie);
    if (!read.ok) return { overrides: {}, clearCookie: read.reason };
    const { grant } = read;
    return { overrides: { [grant.app]: { version: grant.version, why: 'preview' } }, preview: grant };
  };
}

/** A stable text of a choice's overrides (cache keys): empty for the served releases. */
export const choiceKey = (choice: ReleaseChoice): string =>
  Object.entries(choice.overrides)
    .map(([app, o]) => `${app}@${o!.version}:${o!.why}`)
    .sort()
    .join(',');
