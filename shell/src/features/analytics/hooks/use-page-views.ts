import { useEffect } from 'react';
import { useLocation } from 'react-router-dom';
import { createPageViewTracker, type PageOwner, type PageViewTracker } from '../lib/page-view-tracker';

/** One tracker per page load: a remount of the shell (an error boundary's reset, StrictMode) keeps what it has counted. */
let pageTracker: PageViewTracker | undefined;
const sharedTracker = () => (pageTracker ??= createPageViewTracker());
// Made as the shell's code loads in the browser, before the first render's effects: a page that says it was not found
// (useNotFoundSignal, a child's effect) does so before this hook's effect counts the view, and must be heard.
if (typeof window !== 'undefined') sharedTracker();

/**
 * Counts a page view for the first page and for each client-side route change (see PageViewTracker.navigated).
 * An effect, so it runs in the browser only, after hydration, never on the server. `ownerOf` names the remote and
 * release of a path (the app's remotes map; keep it stable), so a move inside the site counts for that release too.
 */
export function usePageViews(tracker?: PageViewTracker, ownerOf?: (pathname: string) => PageOwner | undefined): void {
  const { pathname } = useLocation();
  // A new `ownerOf` (the remotes map arrived) runs this again for the same path: not a new view (navigated ignores it).
  useEffect(() => {
    (tracker ?? sharedTracker()).navigated(pathname, ownerOf?.(pathname));
  }, [tracker, pathname, ownerOf]);
}
