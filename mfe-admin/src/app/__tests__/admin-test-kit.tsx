import { configure, render, screen } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { MemoryRouter, useLocation } from 'react-router-dom';
import { toast, Toaster } from 'sonner';
import { afterEach, beforeEach } from 'vitest';
import type { AdminPostList, AdminSession } from '@site/contracts/admin';
import type { Post } from '@site/contracts/posts';
import { RemoteRoutes } from '@site/ui';
import { server } from '../../../../vitest.setup-dom';
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
export function servePostList(posts: Post[]) {
  const requests: URL[] = [];
  server.use(
    http.get('/api/admin/posts', ({ request }) => {
      const url = new URL(request.url);
      requests.push(url);
      const status = url.searchParams.get('status');
      const q = (url.searchParams.get('q') ?? '').toLowerCase();
      const matching = posts.filter((p) => (!status || p.status === status) && (!q || `${p.title} ${p.excerpt} ${p.category}`.toLowerCase().includes(q)));
      const body: AdminPostList = {
        posts: matching.map(({ content: _c, ...summary }) => summary),
        total: matching.length,
        page: 1,
        limit: 50,
        counts: {
          draft: posts.filter((p) => p.status === 'draft').length,
          published: posts.filter((p) => p.status === 'published').length,
          archived: posts.filter((p) => p.status === 'archived').length,
        },
      };
      return HttpResponse.json(body);
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

/** The admin remote's route table at `url` (any other path is the not-found page), the toaster and the current path. */
export function renderAdmin(url: string) {
  const result = render(
    <MemoryRouter initialEntries={[url]}>
      <RemoteRoutes routes={routes} />
      <WhereAmI />
      <Toaster />
    </MemoryRouter>,
  );
  return { ...result, location: () => screen.getByTestId('location').textContent };
}
