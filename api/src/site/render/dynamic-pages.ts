import { pageMetaSchema, type PageMeta } from '@site/contracts/manifest';
import type { Logger } from '../../lib/logger';
import type { ResolvedPage } from './resolve-page';

/**
 * The search metadata of a resolved page: a `PageMeta` (the page exists), `'not-found'` (a 404, e.g. an unknown blog
 * slug), or null (a declared route with nothing to say: the default head; a path no remote declares: the caller's 404).
 *
 * A static page has the metadata its manifest declares (matched as the router matches: `/Blog/`, `/bl%6Fg` are
 * `/blog`). A dynamic page (`/blog/:slug`) names in its route table the data it needs and a `head(params, data)`: the
 * server loads the data with its own loader (unknown → 'not-found') and runs `head` from the remote's server module.
 * The API names no remote's page. Whatever goes wrong on the remote's side (no server module, a head that throws or
 * answers invalid metadata, a data source the server does not know) is logged and the page keeps the default head:
 * never a 500 for it.
 */
export async function resolveHead(page: ResolvedPage, logger?: Logger): Promise<PageMeta | 'not-found' | null> {
  const { owner } = page;
  if (!owner) return null;
  if (owner.staticMeta) return owner.staticMeta;
  const { manifest, module, route } = owner;
  if (!module) {
    if (manifest.server) logger?.warn({ remote: manifest.name, path: page.path }, 'no server module loaded: the page gets the default head');
    return null;
  }
  if (!route?.def.head) return null;

  let data: unknown;
  if (route.def.data) {
    const result = await page.data();
    if (!result.loaded) {
      logger?.error({ remote: manifest.name, route: route.def.path, data: route.def.data }, 'route asks for server data the server cannot load: default head');
      return null;
    }
    data = result.data;
    if (data === undefined) return 'not-found';
  }

  try {
    return pageMetaSchema.parse(route.def.head(route.params, data));
  } catch (error) {
    logger?.error({ remote: manifest.name, route: route.def.path, path: page.path, err: error }, 'head() failed or answered invalid metadata: default head');
    return null;
  }
}
