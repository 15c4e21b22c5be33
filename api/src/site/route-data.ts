import { analysisIdSchema } from '@site/contracts/analysis';
import type { RouteDataSourceName } from '@site/contracts/manifest';
import { NotFoundError } from '../lib/domain-errors';
import type { AnalysisService } from '../services/analysis/analysis-service';
import type { PostService } from '../services/post-service';

/** Loads the data of one dynamic page from its route param: what the public API answers, or undefined (a 404). */
export type RouteDataLoader = (param: string) => Promise<unknown>;

/** One loader per data source a route table may name (`data: { source, param }`). */
export type RouteDataLoaders = Readonly<Record<RouteDataSourceName, RouteDataLoader>>;

/**
 * The server side of `data` in the remotes' route tables. Each answers exactly what the public API answers for the
 * same thing (`GET /api/posts/:slug`, `GET /api/analyses/:id`), so a page's `head` sees the same data on the server
 * and in the browser; anything that does not exist (unknown slug, draft, unknown or malformed id) is undefined.
 */
export function createRouteDataLoaders(services: {
  posts: Pick<PostService, 'getPublished'>;
  analysis: Pick<AnalysisService, 'getAnalysis'>;
}): RouteDataLoaders {
  return {
    post: async (slug) => {
      try {
        return await services.posts.getPublished(slug);
      } catch (error) {
        if (error instanceof NotFoundError) return undefined;
        throw error;
      }
    },
    'analysis-report': async (id) => {
      const parsed = analysisIdSchema.safeParse(id);
      return parsed.success ? services.analysis.getAnalysis(parsed.data) : undefined;
    },
  };
}
