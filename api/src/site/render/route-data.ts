import { analysisIdSchema } from '@site/contracts/analysis';
import type { RouteDataSourceName } from '@site/contracts/manifest';
import type { PostList } from '@site/contracts/posts';
import { InvalidInputError, NotFoundError } from '../../lib/domain-errors';
import type { AnalysisService } from '../../analysis/analysis-service';
import type { PostService } from '../../posts/post-service';
import { sanitizePostHtml } from '../../posts/sanitize-post-html';

/**
 * Loads the data of one page from its route param (undefined when the route names none) and the URL's query:
 * what the public API answers, or undefined (a 404).
 */
export type RouteDataLoader = (param: string | undefined, search: URLSearchParams) => Promise<unknown>;

/** One loader per data source a route table may name (`data: { source, param? }`). */
export type RouteDataLoaders = Readonly<Record<RouteDataSourceName, RouteDataLoader>>;

/** A post list filter exactly as the blog's queries key it (`{ q, category }`, '' for none). */
type ListFilter = { q: string; category: string };

/**
 * The server side of `data` in the remotes' route tables. Each answers exactly what the public API answers for the
 * same thing (`GET /api/posts/:slug`, `GET /api/analyses/:id`, `GET /api/posts?…`), so a page's `head` and its
 * server render see the same data as the browser; anything that does not exist (unknown slug, draft, unknown or
 * malformed id) is undefined. A post's HTML is sanitized once more on the way out, as the browser does before it
 * reaches the DOM: the server renders it without a DOM to run DOMPurify in.
 */
export function createRouteDataLoaders(services: {
  posts: Pick<PostService, 'getPublished' | 'pagePublished'>;
  analysis: Pick<AnalysisService, 'getAnalysis'>;
}): RouteDataLoaders {
  const firstPage = async (filter: ListFilter): Promise<PostList | undefined> => {
    try {
      return await services.posts.pagePublished({ ...(filter.q ? { q: filter.q } : {}), ...(filter.category ? { category: filter.category } : {}) });
    } catch (error) {
      // A query the API refuses (too long) is the browser's to show: its own request gets the 400.
      if (error instanceof InvalidInputError) return undefined;
      throw error;
    }
  };
  return {
    post: async (slug) => {
      if (slug === undefined) return undefined;
      try {
        const post = await services.posts.getPublished(slug);
        return { ...post, content: sanitizePostHtml(post.content) };
      } catch (error) {
        if (error instanceof NotFoundError) return undefined;
        throw error;
      }
    },
    'analysis-report': async (id) => {
      const parsed = analysisIdSchema.safeParse(id);
      return parsed.success ? services.analysis.getAnalysis(parsed.data) : undefined;
    },
    // What the blog's list queries fetch first (`{ lists }`, PostListData in @site/ui): a category's posts, or every
    // post plus the list the URL's own filter shows. A category with no published post (unknown, or drafts only) is
    // a 404, as an unknown post is: nothing there for a reader or a search engine. The blog itself never is.
    'post-list': async (category, search) => {
      if (category !== undefined) {
        const filter = { q: '', category: category.toLowerCase() };
        const list = await firstPage(filter);
        return list && list.total > 0 ? { lists: [{ filter, list }] } : undefined;
      }
      const filters: ListFilter[] = [{ q: '', category: '' }, { q: (search.get('q') ?? '').trim(), category: search.get('category') ?? '' }];
      const unique = filters.filter((f, i) => filters.findIndex((g) => g.q === f.q && g.category === f.category) === i);
      const lists = await Promise.all(unique.map(async (filter) => ({ filter, list: await firstPage(filter) })));
      return { lists: lists.filter((l): l is { filter: ListFilter; list: PostList } => l.list !== undefined) };
    },
  };
}

/**
 * One page's data from its route's source: `loaded: false` when the route names a source the server has no loader
 * for. Loaded once per request by its ResolvedPage (resolve-page.ts), which the head and the body share.
 */
export async function loadRouteData(
  loaders: RouteDataLoaders,
  source: string,
  param: string | undefined,
  search: URLSearchParams,
): Promise<{ loaded: false } | { loaded: true; data: unknown }> {
  if (!Object.hasOwn(loaders, source)) return { loaded: false };
  return { loaded: true, data: await loaders[source as RouteDataSourceName](param, search) };
}
