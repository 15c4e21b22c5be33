import { useState, type ReactNode } from 'react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';

/**
 * The admin's query client. Screens behave as they did with hand-written loading: a failed load shows its error and
 * Try again at once (no silent retries), nothing refetches behind the writer's back on a window focus, and a request
 * goes out even when the browser claims to be offline (the screen then says it failed). A screen opened again shows
 * what it showed last while it asks again (answers are stale at once).
 */
export function createAdminQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: { retry: false, refetchOnWindowFocus: false, networkMode: 'always' },
      mutations: { retry: false, networkMode: 'always' },
    },
  });
}

/**
 * The browser's one client of this remote. Not shared through federation: the admin alone uses it, and its provider
 * wraps the remote's own tree (TanStack Query itself imports the shared React, so one React runs the page).
 */
const browserClient = typeof window === 'undefined' ? null : createAdminQueryClient();

/** Gives the admin's screens their query client: the browser's, or `client` (a test's, one per render). */
export function AdminQueryProvider({ client, children }: { client?: QueryClient; children: ReactNode }) {
  const [active] = useState(() => client ?? browserClient ?? createAdminQueryClient());
  return <QueryClientProvider client={active}>{children}</QueryClientProvider>;
}
