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

/** The events of one POST /api/events: one event, or the events of one moment in a batch (`{ events }`). */
export function eventsOf(r: Request): SentEvent[] {
  const body = JSON.parse(r.postData() ?? '{}') as SentEvent | { events?: SentEvent[] };
  return 'events' in body && Array.isArray(body.events) ? body.events : [body as SentEvent];
}

/** Resolves with the next tracking event of `name` that reached POST /api/events (alone or in a batch) and was accepted. */
export function nextEvent(page: Page, name: string): Promise<SentEvent> {
  return page
    .waitForRequest((r: Request) => r.url().endsWith('/api/events') && r.method() === 'POST' && eventsOf(r).some((e) => e.name === name))
    .then(async (r) => {
      const res = await r.response();
      expect(res?.status(), 'the API accepted the event').toBeLessThan(300);
      return eventsOf(r).find((e) => e.name === name)!;
    });
}
