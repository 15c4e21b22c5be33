import { configure, render, screen } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { MemoryRouter, useLocation } from 'react-router-dom';
import { toast, Toaster } from 'sonner';
import { afterEach, beforeEach } from 'vitest';
import type { AdminPostList, AdminSession, PostRevision, PostRevisionList } from '@site/contracts/admin';
import type { Post } from '@site/contracts/posts';
import { postMatches } from '@site/contracts/posts-rules';
import { SEARCH_COUNT_LIMIT } from '@site/contracts/search-rules';
import { RemoteRoutes } from '@site/ui';
import { server } from '../../../../vitest.msw';
import { AdminQueryProvider, createAdminQueryClient } from '../../lib/query-client';
import { useSessionStore } from '../../lib/session-store';
import { routes } from '../routes';

// Lazy screens are transformed on first import: give them time to arrive.
configure({ asyncUtilTimeout: 4000 });

// jsdom lacks these browser APIs that Radix and the sidebar's media query use.
if (!window.matchMedia) {
  window.matchMedia = (query: string) =>
    ({
      matches: /min-width: 1024px/.test(query),
      media: query,
      onchange: null,
      addEventListener: () => {},
      removeEventListener: () => {},
      addListener: () => {},
      removeListener: () => {},
      dispatchEvent: () => false,
    }) as MediaQueryList;
}
if (!('ResizeObserver' in window)) {
  (window as unknown as { ResizeObserver: unknown }).ResizeObserver = class {
    observe() {}
    unobserve() {}
    disconnect() {}
  };
}

beforeEach(() => {
  localStorage.clear();
  useSessionStore.setState({ session: null, expired: false });
});
afterEach(() => {
  localStorage.clear();
  // Toasts live in sonner's module state: one test's toasts must not show up again in the next test's toaster.
  toast.dismiss();
});

export const loggedIn: AdminSession = { authenticated: true, passwordConfigured: true, activeSection: 'dashboard', expiresAt: '2030-01-01T00:00:00.000Z' };
export const loggedOut: AdminSession = { authenticated: false, passwordConfigured: true, activeSection: null, expiresAt: null };

/** A stored post as the admin API answers it. */
export function makePost(overrides: Partial<Post> = {}): Post {
  return {
    id: 'post-1',
    title: 'Chatbots for Danville restaurants',
    slug: 'chatbots-for-danville-restaurants',
    excerpt: 'How a small restaurant answers every order question, day and night.',
    content: `<h2>Why it matters</h2><p>${'Guests ask the same questions every evening. '.repeat(4)}</p>`,
    keywords: ['chatbots', 'restaurants'],
    author: 'Tri-Valley AI Team',
    publishedAt: null,
    publishAt: null,
    createdAt: '2024-03-01T10:00:00.000Z',
    updatedAt: '2024-03-01T10:00:00.000Z',
    status: 'draft',
    featuredImage: '/mfe/blog/placeholder.svg',
    category: 'AI Automation',
    categorySlug: 'ai-automation',
    readTime: 1,
    views: 0,
    metaDescription: 'How a Danville restaurant uses a chatbot to answer every order question, day and night.',
    ogImage: '/mfe/blog/placeholder.svg',
    source: 'local',
    ...overrides,
  };
}

/** GET/PUT session answering `session`; records the sections saved. */
export function serveSession(session: AdminSession = loggedIn) {
  const saved: string[] = [];
  let current = session;
  server.use(
    http.get('/api/admin/session', () => HttpResponse.json(current)),
    http.put('/api/admin/session', async ({ request }) => {
      const body = (await request.json()) as { activeSection: AdminSession['activeSection'] };
      saved.push(String(body.activeSection));
      current = { ...current, activeSection: body.activeSection };
      return HttpResponse.json(current);
    }),
  );
  return { saved, setSession: (s: AdminSession) => (current = s) };
}

/** GET /api/admin/posts over `posts` (status filter and search like the API). */
/** The webhook's example body, as the API description serves it (the posts page's webhook docs show it). */
export const WEBHOOK_EXAMPLE = {
  title: 'Five automations for busy salons',
  excerpt: 'Small automations that give a salon team back hours every week.',
  content: '<h2>Start small</h2><p>Reminders, rebooking and review requests are the three automations that pay back fastest for a salon.</p>',
  author: 'Tri-Valley AI Team',
  category: 'How-To Guides',
  metaDescription: 'Five simple automations that save a busy salon several hours every single week.',
  keywords: ['salon', 'automation'],
  status: 'published',
};

/** GET /api/openapi.json: the part of the description the webhook docs read. */
export function serveApiDescription() {
  server.use(
    http.get('/api/openapi.json', () =>
      HttpResponse.json({ openapi: '3.1.0', paths: { '/api/webhook': { post: { requestBody: { content: { 'application/json': { example: WEBHOOK_EXAMPLE } } } } } } }),
    ),
  );
}

/** The posts page's requests: its list (answered from `posts`) and the API description of its webhook docs. */
export function servePostList(posts: Post[]) {
  const requests: URL[] = [];
  serveApiDescription();
  server.use(
    http.get('/api/admin/posts', ({ request }) => {
      const url = new URL(request.url);
      requests.push(url);
      const status = url.searchParams.get('status');
      const q = url.searchParams.get('q') ?? '';
      // The API's search rule (every word, the last one as a prefix); the API also ranks the matches, the fake does not.
      const matching = posts.filter((p) => (!status || p.status === status) && postMatches(p, q));
      // Keyset pages as the API answers them; the fake's cursor is the index of the page's first post (opaque to the screen).
      const limit = Number(url.searchParams.get('limit') ?? 50);
      const start = Number(url.searchParams.get('cursor') ?? 0);
      const page = matching.slice(start, start + limit);
      const body: AdminPostList = {
        posts: page.map(({ content: _c, ...summary }) => summary),
        // A search counts its matches up to SEARCH_COUNT_LIMIT and says when more match, as the API does.
        total: q ? Math.min(matching.length, SEARCH_COUNT_LIMIT) : matching.length,
        ...(q ? { totalIsLowerBound: matching.length > SEARCH_COUNT_LIMIT } : {}),
        limit,
        nextCursor: start + limit < matching.length ? String(start + limit) : null,
        prevCursor: start > 0 ? String(Math.max(0, start - limit)) : null,
        counts: {
          draft: posts.filter((p) => p.status === 'draft').length,
          scheduled: posts.filter((p) => p.status === 'scheduled').length,
          published: posts.filter((p) => p.status === 'published').length,
          archived: posts.filter((p) => p.status === 'archived').length,
        },
      };
      return HttpResponse.json(body);
    }),
  );
  return requests;
}

/** A revision as the admin API answers it, with the post's fields as they were (by default those of `makePost()`). */
export function makeRevision(overrides: Partial<PostRevision> = {}, post: Post = makePost()): PostRevision {
  const { id: _id, createdAt: _c, updatedAt: _u, readTime: _r, views: _v, source: _s, ...fields } = post;
  return {
    id: 'rev-1',
    postId: post.id,
    number: 1,
    createdAt: '2024-03-01T10:00:00.000Z',
    action: 'create',
    author: { kind: 'admin', label: 'Admin' },
    changedFields: ['title', 'content'],
    restoredFrom: null,
    title: post.title,
    status: post.status,
    post: fields,
    ...overrides,
  };
}

/** GET the history of `postId` (newest first, paged like the API) and each revision; records the list requests. */
export function serveRevisions(postId: string, revisions: PostRevision[] = []) {
  const requests: URL[] = [];
  server.use(
    http.get(`/api/admin/posts/${postId}/revisions`, ({ request }) => {
      const url = new URL(request.url);
      requests.push(url);
      const page = Number(url.searchParams.get('page') ?? 1);
      const limit = Number(url.searchParams.get('limit') ?? 20);
      const body: PostRevisionList = {
        revisions: revisions.slice((page - 1) * limit, page * limit).map(({ post: _p, ...summary }) => summary),
        total: revisions.length,
        page,
        limit,
      };
      return HttpResponse.json(body);
    }),
    http.get(`/api/admin/posts/${postId}/revisions/:revisionId`, ({ params }) => {
      const found = revisions.find((r) => r.id === params.revisionId);
      return found ? HttpResponse.json(found) : envelope(404, 'not_found', 'Revision not found');
    }),
  );
  return requests;
}

export const envelope = (status: number, code: string, message: string, details?: unknown) =>
  HttpResponse.json({ error: { code, message, ...(details !== undefined ? { details } : {}) } }, { status });

function WhereAmI() {
  const { pathname, search } = useLocation();
  return (
    <p data-testid="location" hidden>
      {pathname + search}
    </p>
  );
}

/**
 * The admin remote's route table at `url` (any other path is the not-found page) inside the query provider its App
 * gives it, with a client of its own (a render is a fresh visit: nothing cached), the toaster and the current path.
 */
export function renderAdmin(url: string) {
  const result = render(
    <MemoryRouter initialEntries={[url]}>
      <AdminQueryProvider client={createAdminQueryClient()}>
        <RemoteRoutes routes={routes} />
      </AdminQueryProvider>
      <WhereAmI />
      <Toaster />
    </MemoryRouter>,
  );
  return { ...result, location: () => screen.getByTestId('location').textContent };
}
