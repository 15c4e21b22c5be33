import type { PostService } from '../../posts/post-service';
import type { SmokeRenderData } from '../releases/smoke-render';
import { loadRouteData, type RouteDataLoaders } from './route-data';

/**
 * What a release's smoke render renders with (site/releases/smoke-render.ts): each page's data from the server's own
 * loaders, and for a route's param a real value where the site has one: the newest published post's slug and its
 * category. An analysis report is a visitor's own: none is taken as an example, so that page renders its not-found
 * state, as for an unknown id.
 */
export function createSmokeRenderData(services: { loaders: () => RouteDataLoaders; posts: Pick<PostService, 'pagePublished'> }): SmokeRenderData {
  const newest = async () => (await services.posts.pagePublished({ limit: 1 })).posts[0];
  return {
    load: (source, param) => loadRouteData(services.loaders(), source, param, new URLSearchParams()),
    async example(source, param) {
      if (source === 'post' && param === 'slug') return (await newest())?.slug;
      if (source === 'post-list' && param === 'category') return (await newest())?.categorySlug;
      return undefined;
    },
  };
}
