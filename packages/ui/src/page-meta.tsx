import { useEffect } from 'react';

/** Scrolls to the top when a page mounts (case-study and city pages). */
export function useScrollToTop(): void {
  useEffect(() => {
    // Instant: the theme's smooth scrolling would otherwise animate a freshly opened page up from below.
    if (!window.location.hash) window.scrollTo({ top: 0, left: 0, behavior: 'instant' });
  }, []);
}
