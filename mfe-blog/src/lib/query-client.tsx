import { useState, type ReactNode } from 'react';
import { QueryClient, QueryClientProvider, defaultShouldDehydrateQuery, type Query } from '@tanstack/react-query';
import { persistQueryClientRestore, persistQueryClientSubscribe } from '@tanstack/react-query-persist-client';
import { createSyncStoragePersister } from '@tanstack/query-sync-storage-persister';
import { ApiError } from '@site/ui';
import type { PostFilter } from './get-posts';

/** localStorage key of the blog's cached answers, shown at once on the next visit while fresh ones load. */
export const BLOG_CACHE_KEY = 'blog:queries:v1';
/** Older than this, a cached answer is not worth showing. */
export const BLOG_CACHE_MAX_AGE_MS = 7 * 24 * 60 * 60 * 1000;
/** Names the shape of what is stored: change it when the post contract changes, and old caches are dropped. */
const CACHE_BUSTER = 'post-list-v2';

/** The blog's query client: answers stay fresh 30 s; one retry for network and server failures, none for 4xx. */
export function createBlogQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        staleTime: 30_000,
        // Cached answers must outlive the cache they are restored into (TanStack's rule for persisting). On the server
        // (one client per render) no collection timer may keep a finished render's cache alive: Infinity sets none.
        gcTime: typeof window === 'undefined' ? Infinity : BLOG_CACHE_MAX_AGE_MS,
        // Fetch even when the browser claims to be offline: the reader gets an error with Try again, not a spinner.
        networkMode: 'always',
        retry: (failures, error) => failures < 1 && !(error instanceof ApiError && error.status >= 400 && error.status < 500),
      },
    },
  });
}

/** Only the lists a returning reader lands on (all posts, a category) are kept; searches and articles are not. */
function isStoredQuery(query: Query): boolean {
  const [scope, kind, filter] = query.queryKey as [unknown, unknown, Partial<PostFilter> | undefined];
  return defaultShouldDehydrateQuery(query) && scope === 'posts' && kind === 'list' && !filter?.q;
}

/** localStorage, or null where the browser refuses it (privacy settings); failures are only logged. */
export function browserStorage(): Storage | null {
  try {
    return window.localStorage;
  } catch (error) {
    console.warn('Local storage is not available; the blog will not be cached', error);
    return null;
  }
}

/** Storage whose failures (full, blocked) are logged and otherwise ignored: the blog works without it. */
function loggedStorage(storage: Storage) {
  const attempt = <T,>(what: string, fn: () => T, fallback: T): T => {
    try {
      return fn();
    } catch (error) {
      console.warn(`Could not ${what} the cached blog posts`, error);
      return fallback;
    }
  };
  return {
    getItem: (key: string) => attempt('read', () => storage.getItem(key), null),
    setItem: (key: string, value: string) => attempt('store', () => storage.setItem(key, value), undefined),
    removeItem: (key: string) => attempt('remove', () => storage.removeItem(key), undefined),
  };
}

/**
 * Restores into `client` what the last visit stored in `storage`, then stores every change (right away, so
 * a reload a moment later already finds it). `restored` settles once the cache is ready; `stop` ends storing.
 */
export function persistBlogQueries(client: QueryClient, storage: Storage | null): { restored: Promise<void>; stop: () => void } {
  const options = {
    queryClient: client,
    persister: createSyncStoragePersister({ storage: storage && loggedStorage(storage), key: BLOG_CACHE_KEY, throttleTime: 0 }),
    maxAge: BLOG_CACHE_MAX_AGE_MS,
    buster: CACHE_BUSTER,
    dehydrateOptions: { shouldDehydrateQuery: isStoredQuery },
  };
  let stopped = false;
  let unsubscribe = () => {};
  const restored = persistQueryClientRestore(options)
    // Unparsable storage is dropped by the restore; it is worth a log line, not the reader's attention.
    .catch((error: unknown) => console.warn('Could not read the cached blog posts', error))
    .then(() => {
      if (!stopped) unsubscribe = persistQueryClientSubscribe(options);
    });
  return {
    restored,
    stop: () => {
      stopped = true;
      unsubscribe();
    },
  };
}

/**
 * The browser's one client of this remote (not shared through federation: the blog alone loads it).
 * Created when the remote's code loads, so the cache is restored before the first page renders.
 */
const browserClient = typeof window === 'undefined' ? null : createBlogQueryClient();
if (browserClient) persistBlogQueries(browserClient, browserStorage());

/**
 * Gives the blog's pages their query client: the browser's by default, or `client` (a test), or a new one per
 * server render. `seed` fills it once before the first render (the data the server rendered the page with).
 */
export function BlogQueryProvider({ client, seed, children }: { client?: QueryClient; seed?: (client: QueryClient) => void; children: ReactNode }) {
  const [active] = useState(() => {
    const chosen = client ?? browserClient ?? createBlogQueryClient();
    seed?.(chosen);
    return chosen;
  });
  return <QueryClientProvider client={active}>{children}</QueryClientProvider>;
}
