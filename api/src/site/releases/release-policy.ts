/*
 * What a release may declare (issue 51), checked by release-format's checkRelease: at upload (the deployer), at load
 * (the registry, the release sync) and by `npm run deploy`. A release that breaks it is refused at upload and never
 * served; one already stored is not loaded (the registry keeps its last good release).
 *
 * - Routes: each route and page of a remote's manifest must lie inside the remote's ownership patterns, and its most
 *   specific owner must be that remote (@site/contracts/route-ownership): the site says who owns a path, not a release.
 * - Limits: a manifest is read only up to its byte cap, and carries at most so many routes and pages, so that one
 *   release cannot stall an instance (every page request matches its path against every route).
 */
import type { MfeManifest, RemoteName } from '@site/contracts/manifest';
import { DEFAULT_APP_ROUTES, ownershipTable, routeRefusal, type OwnedPattern } from '@site/contracts/route-ownership';

export interface ReleaseLimits {
  /** Routes of one manifest (RELEASE_MAX_ROUTES). */
  maxRoutes: number;
  /** Pages (static metadata entries) of one manifest (RELEASE_MAX_PAGES). */
  maxPages: number;
  /** Bytes of mfe-manifest.json (RELEASE_MAX_MANIFEST_KB). */
  maxManifestBytes: number;
}

export interface ReleasePolicy {
  /** The site's ownership table: the server's paths, then each app's patterns (APP_ROUTES_<APP>). */
  owners: readonly OwnedPattern[];
  /** Each app's own patterns, as `/remotes.json` tells the shell. */
  appRoutes: Readonly<Record<RemoteName, readonly string[]>>;
  limits: ReleaseLimits;
}

/** Today's largest manifest (marketing) has 15 routes and 15 pages in about 20 KB: room to grow, nowhere near a stall. */
export const DEFAULT_RELEASE_LIMITS: ReleaseLimits = { maxRoutes: 200, maxPages: 200, maxManifestBytes: 256 * 1024 };

export function releasePolicy(appRoutes: Partial<Record<RemoteName, readonly string[]>> = {}, limits: Partial<ReleaseLimits> = {}): ReleasePolicy {
  const routes = { ...DEFAULT_APP_ROUTES, ...appRoutes };
  return Object.freeze({ owners: Object.freeze(ownershipTable(routes)), appRoutes: Object.freeze(routes), limits: Object.freeze({ ...DEFAULT_RELEASE_LIMITS, ...limits }) });
}

let current: ReleasePolicy = releasePolicy();

/** The policy of this process: the configuration's (app.ts sets it from APP_ROUTES_* and RELEASE_MAX_*), else the defaults. */
export function currentReleasePolicy(): ReleasePolicy {
  return current;
}

/** Sets the process's policy (one site per process; tests set it back with `useReleasePolicy(releasePolicy())`). */
export function useReleasePolicy(policy: ReleasePolicy): void {
  current = policy;
}

const kb = (bytes: number) => `${Math.round(bytes / 1024)} KB`;

/** Why a manifest of `bytes` bytes is too large to read, or undefined. */
export function manifestSizeProblem(bytes: number, policy: ReleasePolicy = current): string | undefined {
  const max = policy.limits.maxManifestBytes;
  return bytes > max ? `mfe-manifest.json is ${kb(bytes)}, over the limit of ${kb(max)} (RELEASE_MAX_MANIFEST_KB)` : undefined;
}

/** What is wrong with what `manifest` declares for remote `name`: over a limit, or a route or page outside its own. */
export function manifestPolicyProblems(manifest: MfeManifest, name: RemoteName, policy: ReleasePolicy = current): string[] {
  const { maxRoutes, maxPages } = policy.limits;
  const problems: string[] = [];
  if (manifest.routes.length > maxRoutes) problems.push(`mfe-manifest.json declares ${manifest.routes.length} routes, over the limit of ${maxRoutes} (RELEASE_MAX_ROUTES)`);
  const pages = manifest.pages ?? [];
  if (pages.length > maxPages) problems.push(`mfe-manifest.json declares ${pages.length} pages, over the limit of ${maxPages} (RELEASE_MAX_PAGES)`);
  // Past a limit, the routes are not judged one by one: the refusal is already said, and judging them costs.
  if (problems.length > 0) return problems;
  const refusals = [...new Set([...manifest.routes, ...pages.map((p) => p.path)])].flatMap((route) => routeRefusal(policy.owners, name, route) ?? []);
  if (refusals.length > 0) problems.push(`${refusals.slice(0, 3).join('; ')}${refusals.length > 3 ? ` (and ${refusals.length - 3} more)` : ''}`);
  return problems;
}
