import { useEffect } from 'react';
import { track } from '@site/ui';

/** Spec section 9: analytics thresholds. */
export const SCROLL_DEPTHS = [25, 50, 75, 90] as const;
export const TIME_MARKS_S = [30, 60, 120] as const;

/** Percentage of the page scrolled past the bottom of the viewport, 0-100. */
export function scrollPercent(): number {
  const doc = document.documentElement;
  const scrollable = doc.scrollHeight - window.innerHeight;
  if (scrollable <= 0) return 100;
  return Math.min(100, Math.max(0, (window.scrollY / scrollable) * 100));
}

/**
 * Scroll depth (25/50/75/90 %) and time on page (30/60/120 s), each sent once per page view.
 * Best effort: nothing here may throw into the page.
 */
export function useEngagementTracking(page: string): void {
  useEffect(() => {
    const sentDepths = new Set<number>();
    let frame = 0;
    const check = () => {
      frame = 0;
      try {
        const pct = scrollPercent();
        for (const depth of SCROLL_DEPTHS) {
          if (pct >= depth && !sentDepths.has(depth)) {
            sentDepths.add(depth);
            track('scroll_depth', { page, depth });
          }
        }
      } catch {
        // ignore
      }
    };
    const onScroll = () => {
      if (!frame) frame = window.requestAnimationFrame(check);
    };
    window.addEventListener('scroll', onScroll, { passive: true });
    const timers = TIME_MARKS_S.map((s) => window.setTimeout(() => track('time_on_page', { page, seconds: s }), s * 1000));
    return () => {
      window.removeEventListener('scroll', onScroll);
      if (frame) window.cancelAnimationFrame(frame);
      timers.forEach((t) => window.clearTimeout(t));
    };
  }, [page]);
}
