import { useEffect } from 'react';
import { useLocation } from 'react-router-dom';
import { createPageViewTracker, type PageViewTracker } from '../lib/page-view-tracker';

/** One tracker per page load: a remount of the shell (an error boundary's reset, StrictMode) keeps what it has counted. */
let pageTracker: PageViewTracker | undefined;
const sharedTracker = () => (pageTracker ??= createPageViewTracker());
// Made as the shell's code loads in the browser, before the first render's effects: a page that says it was not found
// (useNotFoundSignal, a child's effect) does so before this hook's effect counts the view, and must be heard.
if (typeof window !== 'undefined') sharedTracker();

/**
 * Counts a page view for the first page and for each client-side route change (see PageViewTracker.navigated).
 * An effect, so it runs in the browser only, after hydration, never on the server.
 */
export function usePageViews(tracker?: PageViewTracker): void {
  const { pathname } = useLocation();
  useEffect(() => {
    (tracker ?? sharedTracker()).navigated(pathname);
  }, [tracker, pathname]);
}
