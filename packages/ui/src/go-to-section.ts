import { useCallback } from 'react';
import { useLocation, useNavigate } from 'react-router-dom';

/** Delay between arriving on the home page and scrolling to a section (spec section 9). */
export const SECTION_SCROLL_DELAY_MS = 100;

/**
 * Lays out the whole page from now on: the sections a long page renders only near the screen (`render-near-screen`
 * in theme.css) take their real heights, so a scroll to a place further down lands where it aims instead of where the
 * sections' estimated heights put it.
 */
export function renderWholePage(): void {
  document.documentElement.setAttribute('data-render-all', '');
}

export function scrollToId(id: string): boolean {
  const el = document.getElementById(id);
  if (!el) return false;
  renderWholePage();
  const reduce = window.matchMedia?.('(prefers-reduced-motion: reduce)').matches;
  el.scrollIntoView({ behavior: reduce ? 'auto' : 'smooth', block: 'start' });
  return true;
}

/**
 * Returns goToSection(id): on the home page it scrolls to the section; elsewhere it goes to `/#id`
 * and scrolls once the section is there (after 100 ms, retrying briefly while the home page loads).
 */
export function useGoToSection(): (id: string) => void {
  const navigate = useNavigate();
  const { pathname } = useLocation();
  return useCallback(
    (id: string) => {
      if (pathname === '/') {
        // A click while the home page is still loading waits for its section instead of doing nothing.
        if (scrollToId(id)) window.history.replaceState(window.history.state, '', `#${id}`);
        else scrollWhenPresent(id);
        return;
      }
      navigate(`/#${id}`);
      scrollWhenPresent(id);
    },
    [navigate, pathname],
  );
}

/** Scrolls to `id` after the spec's delay, waiting up to 5 s for a lazily loaded page to render it. */
export function scrollWhenPresent(id: string, deadline = Date.now() + 5000): void {
  window.setTimeout(() => {
    if (scrollToId(id) || Date.now() > deadline) return;
    scrollWhenPresent(id, deadline);
  }, SECTION_SCROLL_DELAY_MS);
}
