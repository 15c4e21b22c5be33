import type { ReferrerClass, TrackingEvent } from '@site/contracts/events';
import type { RemoteName } from '@site/contracts/manifest';
// Not @site/contracts/events: its zod schemas would load with the shell on every page.
import { MAX_TRACKED_PATH } from '@site/contracts/events-rules';
import { NOT_FOUND_EVENT, preparePageToken, sendEvents, trackingAllowed, type NotFoundDetail } from '@site/ui';
import { referrerClass } from './referrer-class';

/** Views held before they are sent at once (the API takes up to 20 in a request). */
export const PAGE_VIEW_BATCH = 10;
/** How long a view waits for others before the queue is sent anyway, so a long visit is not lost to a crash. */
export const PAGE_VIEW_FLUSH_MS = 5000;

export interface PageViewTrackerOptions {
  /** Where a batch goes; @site/ui's sendEvents (a beacon, or a keepalive POST) unless a test says otherwise. */
  send?: (events: TrackingEvent[]) => void;
  /**
   * Asks for the page-view token a `remote_view` must carry to count (issue 51), as soon as one is queued, so the batch
   * has it even when it goes out as the page closes. @site/ui's preparePageToken with its sender, else nothing.
   */
  prepareToken?: () => unknown;
  batchSize?: number;
  flushAfterMs?: number;
}

export interface PageViewTracker {
  /**
   * The router is now on `pathname` (the first render, hydration, or a client-side navigation). A view is counted
   * only when the path differs from the last one seen: a re-render, StrictMode's second effect, a hydration replay, a
   * #section link or a query change on the same page are not new views; Back or Forward to another page is.
   * `owner`: the remote whose page it is and the release the browser runs; a move inside the site to it (not the
   * document's first page, which the server counted) also sends a `remote_view`, counted against that release.
   */
  navigated(pathname: string, owner?: PageOwner): void;
  /** Sends what is queued now (also done on pagehide, on the tab turning hidden, at the batch size and after a delay). */
  flush(): void;
  /** Stops listening to the page (tests). */
  dispose(): void;
}

/** The remote that renders a page, and the release of it the browser runs (its remotes map's version). */
export interface PageOwner {
  app: RemoteName;
  release: string;
}

/** The owner's own pages are not visitors' page views. */
const isAdminPath = (path: string) => path === '/admin' || path.startsWith('/admin/');

type PrerenderingDocument = Document & { prerendering?: boolean };

/**
 * Counts page views in the browser and sends them in batches. It is created once per page load (module scope in the
 * shell), not per render, so React re-running effects cannot count a view twice. Nothing is collected when the
 * visitor asked not to be tracked (DNT, GPC), and a prerendered page counts only once a person actually opens it.
 */
export function createPageViewTracker(options: PageViewTrackerOptions = {}): PageViewTracker {
  const send = options.send ?? sendEvents;
  const prepareToken = options.prepareToken ?? (options.send ? () => undefined : preparePageToken);
  const batchSize = options.batchSize ?? PAGE_VIEW_BATCH;
  const flushAfterMs = options.flushAfterMs ?? PAGE_VIEW_FLUSH_MS;
  const queue: TrackingEvent[] = [];
  let lastPath: string | null = null;
  let lastOwner: PageOwner | undefined;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let listening = false;
  /** The path whose page said it was not found (useNotFoundSignal), until the router moves elsewhere. */
  let notFoundPath: string | null = null;

  const flush = () => {
    clearTimeout(timer);
    timer = undefined;
    if (queue.length > 0) send(queue.splice(0));
  };
  const onVisibility = () => {
    if (document.visibilityState === 'hidden') flush();
  };
  // A page restored from the back/forward cache runs no router code: the visitor came back to it all the same.
  const onPageShow = (event: PageTransitionEvent) => {
    if (event.persisted && lastPath !== null) count(lastPath, 'internal', lastOwner);
  };

  // Only pages that answered are page views: an unknown report, post or path is not counted (nor in Top pages). Its
  // view is taken back while it waits in the queue (the not-found state shows within the same render, or once the
  // page's data answered 404), or never counted when the page said so first.
  const onNotFound = (event: Event) => {
    const path = (event as CustomEvent<NotFoundDetail>).detail?.path;
    if (typeof path !== 'string') return;
    notFoundPath = path;
    const tracked = path.slice(0, MAX_TRACKED_PATH);
    // Its page view and, after a move inside the site, its remote's view (the server counts no 404 either).
    for (const name of ['page_view', 'remote_view']) {
      for (let i = queue.length - 1; i >= 0; i--) {
        if (queue[i]!.name === name && queue[i]!.path === tracked) {
          queue.splice(i, 1);
          break;
        }
      }
    }
  };
  window.addEventListener(NOT_FOUND_EVENT, onNotFound);

  function listen() {
    if (listening) return;
    listening = true;
    // pagehide, not unload: it fires on mobile too and keeps the page eligible for the back/forward cache.
    window.addEventListener('pagehide', flush);
    window.addEventListener('pageshow', onPageShow);
    document.addEventListener('visibilitychange', onVisibility);
  }

  /** `owner`: a move inside the site to a remote's page, also counted against the remote's release. */
  function count(path: string, referrer: ReferrerClass, owner?: PageOwner) {
    if (isAdminPath(path) || !trackingAllowed()) return;
    const doc = document as PrerenderingDocument;
    if (doc.prerendering) {
      // Prerendered on a guess (a hovered link, a search result): a view only once the visitor opens it.
      doc.addEventListener('prerenderingchange', () => count(path, referrer, owner), { once: true });
      return;
    }
    listen();
    const at = new Date().toISOString();
    queue.push({ name: 'page_view', path: path.slice(0, MAX_TRACKED_PATH), props: { referrer }, at });
    if (owner) {
      queue.push({ name: 'remote_view', path: path.slice(0, MAX_TRACKED_PATH), props: { app: owner.app, release: owner.release }, at });
      void prepareToken();
    }
    if (queue.length >= batchSize) flush();
    else timer ??= setTimeout(flush, flushAfterMs);
  }

  return {
    navigated(pathname, owner) {
      if (pathname === lastPath) return;
      const first = lastPath === null;
      lastPath = pathname;
      lastOwner = owner;
      if (pathname === notFoundPath) return;
      notFoundPath = null;
      // The first view of this document came from document.referrer; every later one is a move inside the site (and
      // its remote's view: the server saw no request for it).
      count(pathname, first ? referrerClass(document.referrer, window.location.origin) : 'internal', first ? undefined : owner);
    },
    flush,
    dispose() {
      clearTimeout(timer);
      window.removeEventListener(NOT_FOUND_EVENT, onNotFound);
      window.removeEventListener('pagehide', flush);
      window.removeEventListener('pageshow', onPageShow);
      document.removeEventListener('visibilitychange', onVisibility);
      listening = false;
    },
  };
}
