import type { PageMeta } from '@site/contracts/manifest';
import type { RemoteRegistry } from './remote-registry';

/**
 * Answers the search metadata of one URL path:
 * a `PageMeta` (the page exists), `'not-found'` (a 404, e.g. an unknown blog slug),
 * or null (no opinion: ask the next resolver).
 */
export type PageMetaResolver = (path: string) => Promise<PageMeta | 'not-found' | null>;

/** Drops one trailing slash so `/blog/` and `/blog` are the same page. */
export const normalisePath = (p: string) => (p.length > 1 && p.endsWith('/') ? p.slice(0, -1) : p);

/** The static `pages` that remotes declare in their manifests. */
export function manifestPagesResolver(registry: RemoteRegistry): PageMetaResolver {
  return async (requestPath) => {
    const wanted = normalisePath(requestPath);
    const { manifests } = await registry.snapshot();
    for (const manifest of manifests) {
      const page = manifest.pages?.find((p) => normalisePath(p.path) === wanted);
      if (page) return page;
    }
    return null;
  };
}

/** Asks each resolver in turn; the first answer that is not null wins. */
export async function resolvePageMeta(
  resolvers: readonly PageMetaResolver[],
  path: string,
): Promise<PageMeta | 'not-found' | null> {
  for (const resolve of resolvers) {
    const answer = await resolve(path);
    if (answer !== null) return answer;
  }
  return null;
}
