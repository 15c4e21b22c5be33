import { useEffect } from 'react';
import { track } from '@site/ui';

/** Analytics thresholds (spec section 9). */
export const SCROLL_DEPTH_THRESHOLDS = [25, 50, 75, 90] as const;
export const TIME_ON_PAGE_SECONDS = [30, 60, 120] as const;

/** How far down the page the bottom of the viewport is, in percent (100 when the page fits the screen). */
function scrolledPercent(): number {
  const doc = document.documentElement;
  const scrollable = doc.scrollHeight - window.innerHeight;
  if (scrollable <= 0) return 100;
  return Math.min(100, ((window.scrollY + window.innerHeight) / doc.scrollHeight) * 100);
}

/**
 * Scroll depth 25/50/75/90 % and time on page 30/60/120 s, each sent once per page view (a new `pageKey`,
 * e.g. the path, is a new page view). Listeners are passive and removed on leave.
 */
export function useEngagementTracking(pageKey: string): void {
  useEffect(() => {
    const sentDepths = new Set<number>();
    let frame = 0;
    const check = () => {
      frame = 0;
      const percent = scrolledPercent();
      for (const depth of SCROLL_DEPTH_THRESHOLDS) {
        if (percent >= depth && !sentDepths.has(depth)) {
          sentDepths.add(depth);
          track('scroll_depth', { depth, page: pageKey });
        }
      }
    };
    const onScroll = () => {
      if (!frame) frame = window.requestAnimationFrame(check);
    };
    // Only scrolling counts: a short page is not "read to 90 %" just by loading.
    window.addEventListener('scroll', onScroll, { passive: true });
    const timers = TIME_ON_PAGE_SECONDS.map((seconds) =>
      window.setTimeout(() => track('time_on_page', { seconds, page: pageKey }), seconds * 1000),
    );
    return () => {
      window.removeEventListener('scroll', onScroll);
      if (frame) window.cancelAnimationFrame(frame);
      timers.forEach((t) => window.clearTimeout(t));
    };
  }, [pageKey]);
}
