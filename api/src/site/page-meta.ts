import type { PageMeta } from '@site/contracts/manifest';
import { matchRoutePattern } from '@site/contracts/route-match';
import type { RemotesSnapshot } from './remote-registry';

/**
 * Answers the search metadata of one URL path:
 * a `PageMeta` (the page exists), `'not-found'` (a 404, e.g. an unknown blog slug),
 * or null (no opinion: ask the next resolver; a declared route nobody answers gets the default head).
 */
export type PageMetaResolver = (path: string, request: PageRequest) => Promise<PageMeta | 'not-found' | null>;

/**
 * One page request as every part of its answer reads it: the deployment snapshot taken once for the request (the
 * head, the body, the stylesheets and the remotes map all come from this one value, whatever a deploy does
 * meanwhile), the URL's query, and a memo so the page's data is loaded once for the head and the body.
 */
export interface PageRequest {
  snapshot: RemotesSnapshot;
  search: URLSearchParams;
  memo: Map<string, Promise<unknown>>;
}

/**
 * The static `pages` that remotes declare in their manifests, matched as the router matches them (`/Blog/`,
 * `/bl%6Fg` are `/blog`); the canonical link names the page's own path.
 */
export function manifestPagesResolver(): PageMetaResolver {
  return async (requestPath, { snapshot: { manifests } }) => {
    for (const manifest of manifests) {
      const page = manifest.pages?.find((p) => matchRoutePattern(p.path, requestPath));
      if (page) return page;
    }
    return null;
  };
}

/** Asks each resolver in turn; the first answer that is not null wins. */
export async function resolvePageMeta(
  resolvers: readonly PageMetaResolver[],
  path: string,
  request: PageRequest,
): Promise<PageMeta | 'not-found' | null> {
  for (const resolve of resolvers) {
    const answer = await resolve(path, request);
    if (answer !== null) return answer;
  }
  return null;
}
