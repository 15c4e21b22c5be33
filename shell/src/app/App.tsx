import { useCallback, useEffect } from 'react';
import { useLocation } from 'react-router-dom';
import { ErrorBoundary, ErrorFallback, scrollWhenPresent, startThemeSync, Toasts } from '@site/ui';
import { usePageViews } from '../features/analytics/hooks/use-page-views';
import { Footer } from '../features/layout/components/footer';
import { Header } from '../features/layout/components/header';
import { useScrollRestoration } from '../features/navigation/hooks/use-scroll-restoration';
import { RemoteRouter } from '../features/remotes/components/remote-router';
import { useRemotes } from '../features/remotes/hooks/use-remotes';
import { findRemote } from '../features/remotes/lib/find-remote';

/** The host: header, footer, theme, toasts, the global crash fallback, and the area a remote renders in. */
export function App() {
  const { pathname } = useLocation();
  // The theme is not read here: the toggle and the toaster follow it themselves, so changing it re-renders those two
  // and not the whole page (its INP, e2e/scripts/inp.mjs).
  useEffect(() => startThemeSync(), []);
  useScrollRestoration();
  // Which remote and release a page is, for the page views counted against each release (issue 34).
  const remotes = useRemotes((s) => s.remotes);
  const ownerOf = useCallback(
    (path: string) => {
      const name = remotes ? findRemote(remotes, path) : null;
      const info = name ? remotes?.[name] : undefined;
      return name && info ? { app: name, release: info.version } : undefined;
    },
    [remotes],
  );
  usePageViews(undefined, ownerOf);
  // A page opened at /#section scrolls there once the remote has rendered it. Only the address the page was
  // opened at: in-app section links scroll by themselves.
  useEffect(() => {
    const { hash } = window.location;
    if (hash.length > 1) scrollWhenPresent(decodeURIComponent(hash.slice(1)));
  }, []);

  return (
    <div className="flex min-h-screen flex-col bg-bg text-fg">
      <a href="#main" className="sr-only focus:not-sr-only focus:fixed focus:left-4 focus:top-4 focus:z-50 focus:rounded-lg focus:bg-surface focus:px-4 focus:py-2 focus:shadow">
        Skip to content
      </a>
      <Header />
      <main id="main" tabIndex={-1} className="flex-1 focus:outline-none">
        <ErrorBoundary resetKeys={[pathname]} fallback={({ reset }) => <ErrorFallback reset={reset} />}>
          <RemoteRouter />
        </ErrorBoundary>
      </main>
      <Footer />
      {/* sonner loads with the first toast (notify in @site/ui), not with the page */}
      <Toasts richColors closeButton position="top-center" />
    </div>
  );
}
