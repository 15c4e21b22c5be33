import { createElement, Suspense, useEffect, type ComponentType } from 'react';
import { Route, Routes, useLocation } from 'react-router-dom';
import type { AnalysisResponse } from '@site/contracts/analysis';
import type { PageMeta, RouteDataSourceName } from '@site/contracts/manifest';
import type { Post, PostList } from '@site/contracts/posts';
import { NotFound } from './not-found';
import { RouteHead } from './page-head';
import { siteDataFor, useSiteData } from './site-data';

/**
 * Server data a dynamic page needs, named by what it is (never by the page): the server loads it with its own
 * services, passes it to `head`, and answers 404 when it does not exist (see ROUTE_DATA_SOURCES).
 *   - `post`: the published blog post whose slug is the route param `param`
 *   - `analysis-report`: the stored analysis report whose id is the route param `param`
 *   - `post-list`: the first page of the post lists the page shows (see PostListData); `param` names the category
 *     param, if any. Never a 404.
 * The server also renders the page with it and embeds it for hydration: the page gets it as its `data` prop.
 */
export type RouteDataSource = { source: RouteDataSourceName; param?: string };

/** One entry of a remote's route table (`src/app/routes.tsx`): the only place a remote lists its routes. */
export interface RemoteRouteDef {
  /** react-router pattern; the manifest's `routes` are exactly these. */
  path: string;
  /** The page (usually `React.lazy`), rendered with `props` (any page fits: `never` props; `props` are its own). */
  page: ComponentType<never>;
  props?: Record<string, unknown>;
  /** Search metadata of a static page (goes into the manifest's `pages`; `RemoteRoutes` keeps the document head to it). */
  meta?: PageMeta;
  /** Server data of a dynamic page; see RouteDataSource. */
  data?: RouteDataSource;
  /**
   * Metadata of a dynamic page from its params and its server data (`RouteData[source]`, exactly what the
   * public API answers for it; undefined without `data`). Pure and synchronous: the server runs it from the
   * remote's server module (`dist/server/routes.js`) for the HTML, the page passes the same function's result to
   * `usePageHead` once it has the data. URL fields may be site paths (`/blog/x`): server and browser make them absolute.
   * (A method signature, so a head may name its data's type: `head: (params, post: Post) => …`.)
   */
  head?(params: Record<string, string>, data: unknown): PageMeta;
}

/** What the server hands to `head` for each data source: what the public API answers for it. */
export interface RouteData {
  post: Post;
  'analysis-report': AnalysisResponse;
  'post-list': PostListData;
}

/**
 * The first page of each post list a page shows (`GET /api/posts` with that filter): for a category, its list; for
 * the blog, every post and, when the URL filters (`?q=`, `?category=`), the filtered list too.
 */
export interface PostListData {
  lists: Array<{ filter: { q: string; category: string }; list: PostList }>;
}

/**
 * Marks the document once a route's page is live in the browser (hydrated or client-rendered):
 * `<html data-hydrated="true">`. Browser tests wait for it before they type or click; renders nothing.
 */
function HydratedMark(): null {
  useEffect(() => {
    document.documentElement.dataset.hydrated = 'true';
  }, []);
  return null;
}

/** Renders a remote's route table as its `<Routes>`, with the shared not-found page for anything else. */
export function RemoteRoutes({ routes }: { routes: readonly RemoteRouteDef[] }) {
  return (
    <Suspense fallback={<PageLoading />}>
      <Routes>
        {routes.map(({ path, page, props, data, meta, head }) => (
          <Route
            key={path}
            path={path}
            element={
              <>
                {/* The head of a static page, or `head(params)` of a route without server data; a page with
                    server data calls usePageHead with its `head(params, data)` itself, once the data is there. */}
                <RouteHead meta={meta} head={data ? undefined : head} />
                <HydratedMark />
                <RoutePage page={page} props={props} source={data?.source} />
              </>
            }
          />
        ))}
        <Route path="*" element={<NotFound />} />
      </Routes>
    </Suspense>
  );
}

/**
 * A route's page, given the server's data as its `data` prop when the server rendered this very path (the first
 * page of a visit): it renders what the server rendered without fetching it again. `notFound`: the server answered
 * this path 404 (its data does not exist), so the page renders its not-found state at once.
 */
function RoutePage({ page, props, source }: { page: ComponentType<never>; props?: Record<string, unknown>; source?: string }) {
  const { pathname } = useLocation();
  const site = useSiteData();
  const data = siteDataFor(site, pathname, source ?? '');
  // The server answered 404 for this very path (an unknown slug or id): the page shows its own not-found state.
  const notFound = site?.status === 404 && site.path === pathname;
  const Page = page as ComponentType<Record<string, unknown>>;
  return createElement(Page, { ...props, ...(data !== undefined ? { data } : {}), ...(notFound ? { notFound } : {}) });
}

/** While a lazy page loads: fills the screen so the footer does not jump (CLS 0). */
function PageLoading() {
  return (
    <div role="status" aria-live="polite" className="min-h-screen">
      <span className="sr-only">Loading…</span>
    </div>
  );
}
