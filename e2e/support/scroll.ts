import type { Page } from '@playwright/test';

/*
 * Scrolling waited for by its `scrollend` event, which the browser fires once a scroll has come to rest (a smooth one
 * at the end of its animation; the site's CSS makes window.scrollTo smooth). A scroll that would not move the page
 * fires none, so each helper knows that a scroll is under way before it waits for its end.
 */

type ScrollWatch = Window & { __e2eScrollEnd?: number };

/**
 * Scrolls the page as `window.scrollTo(0, top)` does (`{ fraction }`: that part of the scrollable height, 1 being the
 * bottom) and resolves with scrollY once the scroll has ended; at once when the page is already there.
 */
export function scrollPageTo(page: Page, top: number | { fraction: number }): Promise<number> {
  return page.evaluate(
    (to) =>
      new Promise<number>((resolve) => {
        const scrollable = document.documentElement.scrollHeight - window.innerHeight;
        const y = typeof to === 'number' ? to : scrollable * to.fraction;
        if (Math.abs(window.scrollY - Math.max(0, Math.min(y, scrollable))) < 1) return resolve(window.scrollY);
        window.addEventListener('scrollend', () => resolve(window.scrollY), { once: true });
        window.scrollTo(0, y);
      }),
    top,
  );
}

/**
 * Runs `action`, which must scroll the page (a click on a section link, a navigation that opens a page at its top,
 * Back restoring a position), and resolves with scrollY once that scroll has ended. `atClick`: the wait starts at
 * the action's click itself (capture phase), so a scroll Playwright makes first to bring the target into view is not
 * taken for the one the click starts.
 */
export async function scrollEndAfter(page: Page, action: () => Promise<unknown>, { atClick = false } = {}): Promise<number> {
  await page.evaluate((onClick) => {
    const w = window as ScrollWatch;
    delete w.__e2eScrollEnd;
    const watch = () => window.addEventListener('scrollend', () => (w.__e2eScrollEnd = window.scrollY), { once: true });
    if (onClick) window.addEventListener('click', watch, { capture: true, once: true });
    else watch();
  }, atClick);
  await action();
  await page.waitForFunction(() => (window as ScrollWatch).__e2eScrollEnd !== undefined, undefined, { timeout: 15_000 }).catch((error: Error) => {
    throw new Error(`no scroll started by the action came to an end: ${error.message}`);
  });
  return page.evaluate(() => (window as ScrollWatch).__e2eScrollEnd!);
}
