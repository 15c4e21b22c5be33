import { useEffect, useLayoutEffect, useRef } from 'react';
import { useLocation, useNavigationType } from 'react-router-dom';
import { renderWholePage, scrollWhenPresent } from '@site/ui';

const STORAGE_KEY = 'scroll-positions';
/** How long Back/Forward waits for a lazily loaded page to grow tall enough to restore its position. */
const RESTORE_TIMEOUT_MS = 4000;
const MAX_ENTRIES = 50;

/** The key react-router keeps in the current history entry ('default' for the first one). */
function historyKey(): string {
  const state: unknown = window.history.state;
  const key = state && typeof state === 'object' ? (state as { key?: unknown }).key : undefined;
  return typeof key === 'string' ? key : 'default';
}

function readPositions(): Record<string, number> {
  try {
    const parsed: unknown = JSON.parse(sessionStorage.getItem(STORAGE_KEY) ?? '{}');
    return parsed && typeof parsed === 'object' ? (parsed as Record<string, number>) : {};
  } catch {
    return {};
  }
}

function writePositions(positions: Record<string, number>): void {
  const keys = Object.keys(positions);
  for (const k of keys.slice(0, Math.max(0, keys.length - MAX_ENTRIES))) delete positions[k];
  try {
    sessionStorage.setItem(STORAGE_KEY, JSON.stringify(positions));
  } catch (error) {
    console.warn('Could not save the scroll position', error);
  }
}

/**
 * The shell owns the router, so it owns scrolling between pages: a new page opens at its top (or at its #hash
 * target), and Back/Forward (or a reload) return to where the visitor left that history entry. Positions are
 * recorded while scrolling, because by the time a navigation is seen the old page may already be gone.
 */
export function useScrollRestoration(): void {
  const location = useLocation();
  const navigationType = useNavigationType();
  const keyRef = useRef(location.key);
  const pathRef = useRef<string | null>(null);

  useEffect(() => {
    if ('scrollRestoration' in window.history) window.history.scrollRestoration = 'manual';
    let frame = 0;
    const onScroll = () => {
      if (frame) return;
      frame = requestAnimationFrame(() => {
        frame = 0;
        // Between the history change and React's commit the old page may shrink or jump: that scroll belongs
        // to no entry the visitor will come back to, so it is not recorded.
        if (historyKey() !== keyRef.current) return;
        const positions = readPositions();
        positions[keyRef.current] = Math.round(window.scrollY);
        writePositions(positions);
      });
    };
    window.addEventListener('scroll', onScroll, { passive: true });
    return () => {
      window.removeEventListener('scroll', onScroll);
      cancelAnimationFrame(frame);
    };
  }, []);

  useLayoutEffect(() => {
    keyRef.current = location.key;
    const previousPath = pathRef.current;
    pathRef.current = location.pathname;
    const firstRender = previousPath === null;

    // The first page of a visit opened anew (a link, a typed address) has no position to return to: sessionStorage,
    // whose first read is slow on a phone, is not read while the page is coming to life.
    if (navigationType === 'POP' && !(firstRender && !reloadedOrRevisited())) {
      const saved = readPositions()[location.key];
      if (saved !== undefined) return restore(saved);
      if (firstRender) return; // a first visit: the browser and the #hash handler decide
    }
    // Same page with other query parameters (a search box writing the URL): leave the visitor where they are.
    if (!firstRender && previousPath === location.pathname && navigationType === 'REPLACE') return;
    if (firstRender) return;
    if (location.hash.length > 1) {
      scrollWhenPresent(decodeURIComponent(location.hash.slice(1)));
      return;
    }
    window.scrollTo({ top: 0, left: 0, behavior: 'instant' });
  }, [location.key, location.pathname, location.hash, navigationType]);
}

/** Whether this document was loaded by a reload or by Back/Forward (not a new visit), when the browser says. */
function reloadedOrRevisited(): boolean {
  const entry = performance.getEntriesByType?.('navigation')[0] as PerformanceNavigationTiming | undefined;
  return !entry || entry.type === 'reload' || entry.type === 'back_forward';
}

/** Scrolls to `y` as soon as the page is tall enough, unless the visitor scrolls first. */
function restore(y: number): () => void {
  const deadline = Date.now() + RESTORE_TIMEOUT_MS;
  let timer = 0;
  let cancelled = false;
  const cancel = () => {
    cancelled = true;
  };
  const events = ['wheel', 'touchstart', 'keydown', 'mousedown'] as const;
  events.forEach((e) => window.addEventListener(e, cancel, { passive: true, once: true }));
  // The saved position is in the page as it was laid out in full.
  renderWholePage();
  const attempt = () => {
    if (cancelled) return;
    const reachable = document.documentElement.scrollHeight - window.innerHeight >= y;
    if (reachable || Date.now() > deadline) {
      window.scrollTo({ top: y, left: 0, behavior: 'instant' });
      if (Math.abs(window.scrollY - y) <= 1 || Date.now() > deadline) return;
    }
    timer = window.setTimeout(attempt, 50);
  };
  attempt();
  return () => {
    cancelled = true;
    window.clearTimeout(timer);
    events.forEach((e) => window.removeEventListener(e, cancel));
  };
}
