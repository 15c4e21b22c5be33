import { render } from '@testing-library/react';
import { http, HttpResponse, type DefaultBodyType, type StrictResponse } from 'msw';
import type { ReactNode } from 'react';
import { MemoryRouter, Route, Routes } from 'react-router-dom';
import { afterEach } from 'vitest';
import { postMatches, type PostSummary } from '@site/contracts/posts';
import { SEARCH_COUNT_LIMIT } from '@site/contracts/search-rules';
import { server } from '../../../../vitest.msw';
import { BlogQueryProvider, createBlogQueryClient, persistBlogQueries } from '../query-client';

/** A published post summary as the API lists it. */
export const summary = (n: number, category: string, categorySlug: string): PostSummary => ({
  id: `id-${n}`,
  title: `Post number ${n} about ${category}`,
  slug: `post-${n}`,
  excerpt: `Excerpt ${n} `.repeat(30),
  keywords: [],
  author: 'Author',
  publishedAt: '2024-01-15T09:00:00.000Z',
  publishAt: null,
  createdAt: '2024-01-15T09:00:00.000Z',
  updatedAt: '2024-01-15T09:00:00.000Z',
  status: 'published',
  featuredImage: '/mfe/blog/placeholder.svg',
  category,
  categorySlug,
  readTime: 3,
  views: 1250,
  metaDescription: 'm'.repeat(60),
  ogImage: '/mfe/blog/placeholder.svg',
  source: 'local',
});

/**
 * GET /api/posts over `posts` as the real API answers it: search (q), category slug, pages of `pageSize` with
 * an opaque cursor, `total` of all matches. Every request's query is recorded. `respond` may override an answer.
 */
export function servePosts(
  posts: PostSummary[],
  { pageSize = 12, respond }: { pageSize?: number; respond?: (url: URL) => Promise<StrictResponse<DefaultBodyType>> | undefined } = {},
) {
  const requests: URL[] = [];
  server.use(
    http.get('/api/posts', async ({ request }) => {
      const url = new URL(request.url);
      requests.push(url);
      const override = respond?.(url);
      if (override) return override;
      const q = url.searchParams.get('q') ?? '';
      const category = url.searchParams.get('category') ?? '';
      const matching = posts.filter((p) => (!category || p.categorySlug === category) && postMatches(p, q));
      const start = Number(url.searchParams.get('cursor') ?? 0);
      const end = start + pageSize;
      // A search counts its matches up to SEARCH_COUNT_LIMIT and says when more match, as the API does.
      const counted = q ? { total: Math.min(matching.length, SEARCH_COUNT_LIMIT), totalIsLowerBound: matching.length > SEARCH_COUNT_LIMIT } : { total: matching.length };
      return HttpResponse.json({ posts: matching.slice(start, end), ...counted, nextCursor: end < matching.length ? String(end) : null });
    }),
  );
  return requests;
}

const running = new Set<() => void>();
// A page left from one test must not write into the next test's storage.
afterEach(() => {
  for (const stop of running) stop();
  running.clear();
});

/** Renders `element` at `url` under `path`, with a fresh query client persisted to `storage` (as the remote does). */
export async function renderPage(element: ReactNode, { url, path, storage = window.localStorage }: { url: string; path: string; storage?: Storage | null }) {
  const client = createBlogQueryClient();
  const persistence = persistBlogQueries(client, storage);
  const stop = () => {
    persistence.stop();
    client.clear();
  };
  running.add(stop);
  await persistence.restored;
  const view = render(
    <BlogQueryProvider client={client}>
      <MemoryRouter initialEntries={[url]}>
        <Routes>
          <Route path={path} element={element} />
        </Routes>
      </MemoryRouter>
    </BlogQueryProvider>,
  );
  return {
    ...view,
    client,
    /** Leaves the page as a reader closing the tab: nothing is stored afterwards. */
    unmount: () => {
      view.unmount();
      stop();
    },
  };
}
