import type { MfeManifest, PageMeta } from '@site/contracts/manifest';
import { bestRouteMatch, matchRoutePattern } from '@site/contracts/route-match';
import { ownerOfPath } from '@site/contracts/route-ownership';
import type { ServerRouteDef } from '@site/contracts/server-render';
import { currentReleasePolicy } from '../releases/release-policy';
import type { RemotesSnapshot, ServedRemote } from '../releases/remote-registry';
import { loadRouteData, type RouteDataLoaders } from './route-data';

/** What the route's data source answered: `loaded: false` when the server has no loader for the source it names. */
export type PageData = { loaded: false } | { loaded: true; data: unknown };

/**
 * One page request, resolved once: which remote owns the path (in this request's snapshot), the release it serves
 * and its imported server module, the static metadata the manifest declares for the path, the route of the module
 * that matches and its params, and the page's data (loaded at most once, on first ask). Immutable: the head, the body,
 * the stylesheets and the remotes map of one answer all read this value.
 */
export interface ResolvedPage {
  readonly path: string;
  readonly search: URLSearchParams;
  readonly snapshot: RemotesSnapshot;
  /** The remote that owns the path (the site's patterns) and declares it, as in the shell; absent: not a page of the site. */
  readonly owner?: {
    readonly manifest: MfeManifest;
    readonly served: ServedRemote | undefined;
    /** The owner's server module as this snapshot serves it; null when it has none or it failed to load. */
    readonly module: ServedRemote['module'];
    /** The manifest's static `pages` entry for the path. */
    readonly staticMeta: PageMeta | undefined;
    /** The server module's route that matches the path, and its params. */
    readonly route: { readonly def: ServerRouteDef; readonly params: Readonly<Record<string, string>> } | undefined;
  };
  /** The route's data, loaded once however many readers ask; `loaded: true, data: undefined` when it does not exist. */
  data(): Promise<PageData>;
}

const NO_DATA: Promise<PageData> = Promise.resolve({ loaded: true, data: undefined });

export function resolvePage(snapshot: RemotesSnapshot, path: string, search: URLSearchParams, loaders: RouteDataLoaders): ResolvedPage {
  // The path's owner by the site's patterns (issue 51), then its routes: never the first remote that declares the path.
  const owner = ownerOfPath(currentReleasePolicy().owners, path);
  const manifest = owner && owner !== 'server' ? snapshot.manifests.find((m) => m.name === owner && bestRouteMatch(m.routes, path)) : undefined;
  if (!manifest) return Object.freeze({ path, search, snapshot, data: () => NO_DATA });

  const served = snapshot.served?.[manifest.name];
  const module = served?.module ?? null;
  const match = module ? bestRouteMatch(module.routes.map((r) => r.path), path) : null;
  const def = match ? module?.routes.find((r) => r.path === match.pattern) : undefined;
  const route = match && def ? Object.freeze({ def, params: Object.freeze({ ...match.params }) }) : undefined;
  const resolved = Object.freeze({
    manifest,
    served,
    module,
    staticMeta: manifest.pages?.find((p) => matchRoutePattern(p.path, path)),
    route,
  });

  let pending: Promise<PageData> | undefined;
  const data = (): Promise<PageData> => {
    if (pending) return pending;
    const source = route?.def.data;
    if (!route || !source) return (pending = NO_DATA);
    const param = source.param === undefined ? undefined : route.params[source.param];
    // A route that names a param it does not have cannot load anything: the server has no data for it.
    if (source.param !== undefined && param === undefined) return (pending = Promise.resolve({ loaded: false }));
    return (pending = loadRouteData(loaders, source.source, param, search));
  };
  return Object.freeze({ path, search, snapshot, owner: resolved, data });
}
