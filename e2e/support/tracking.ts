import { expect, type Page, type Request } from '@playwright/test';

export type SentEvent = { name: string; props?: Record<string, unknown>; path: string };

/**
 * Chromium does not expose the body of a sendBeacon request to Playwright, so pages under test use
 * track()'s other transport, a keepalive fetch to the same endpoint, whose body the test can read.
 * Call before page.goto.
 */
export async function readableTracking(page: Page) {
  await page.addInitScript(() => {
    Object.defineProperty(Navigator.prototype, 'sendBeacon', { value: undefined, configurable: true });
  });
}

/** Resolves with the next tracking event of `name` that reached POST /api/events and was accepted. */
export function nextEvent(page: Page, name: string): Promise<SentEvent> {
  return page
    .waitForRequest((r: Request) => r.url().endsWith('/api/events') && r.method() === 'POST' && JSON.parse(r.postData() ?? '{}').name === name)
    .then(async (r) => {
      const res = await r.response();
      expect(res?.status(), 'the API accepted the event').toBeLessThan(300);
      return JSON.parse(r.postData()!) as SentEvent;
    });
}
