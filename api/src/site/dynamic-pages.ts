import { pageMetaSchema } from '@site/contracts/manifest';
import { bestRouteMatch } from '@site/contracts/route-match';
import type { Logger } from '../lib/logger';
import type { PageMetaResolver } from './page-meta';
import { loadRouteData, type RouteDataLoaders } from './route-data';

/**
 * Dynamic pages (`/blog/:slug`): the remote that declares the route (the first, as in the shell) names in its
 * route table the data the page needs and a `head(params, data)`; the server loads the data with its own loader
 * (unknown → 'not-found', a 404) and runs `head` from the remote's server module. The API names no remote's page.
 * Whatever goes wrong on the remote's side (no server module, a head that throws or answers invalid metadata, a
 * data source the server does not know) is logged and the page keeps the default head: never a 500 for it.
 */
export function dynamicPagesResolver(options: { loaders: RouteDataLoaders; logger?: Logger }): PageMetaResolver {
  const { logger } = options;
  return async (requestPath, request) => {
    const { manifests, served } = request.snapshot;
    const manifest = manifests.find((m) => bestRouteMatch(m.routes, requestPath));
    if (!manifest) return null;

    // The module of the release this request's snapshot serves (imported once, when the release was resolved).
    const module = served?.[manifest.name]?.module ?? null;
    if (!module) {
      if (manifest.server) logger?.warn({ remote: manifest.name, path: requestPath }, 'no server module loaded: the page gets the default head');
      return null;
    }
    const match = bestRouteMatch(
      module.routes.map((r) => r.path),
      requestPath,
    );
    const route = match && module.routes.find((r) => r.path === match.pattern);
    if (!match || !route?.head) return null;

    let data: unknown;
    if (route.data) {
      const param = route.data.param === undefined ? undefined : match.params[route.data.param];
      const result =
        route.data.param !== undefined && param === undefined
          ? { loaded: false as const }
          : await loadRouteData(options.loaders, route.data.source, param, request.search, request.memo);
      if (!result.loaded) {
        logger?.error({ remote: manifest.name, route: route.path, data: route.data }, 'route asks for server data the server cannot load: default head');
        return null;
      }
      data = result.data;
      if (data === undefined) return 'not-found';
    }

    try {
      return pageMetaSchema.parse(route.head(match.params, data));
    } catch (error) {
      logger?.error({ remote: manifest.name, route: route.path, path: requestPath, err: error }, 'head() failed or answered invalid metadata: default head');
      return null;
    }
  };
}
