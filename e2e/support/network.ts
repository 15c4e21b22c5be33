import { expect, type Page, type Request } from '@playwright/test';

/**
 * Follows the requests `page` makes from now on. `answered()` waits until every one of them has finished or failed:
 * what a page asks for while it loads and hydrates (a chunk, the post's view count) has its answer, or its error,
 * by then. A request the page makes later (the page-view batch, sent after a delay) is not waited for.
 */
export function watchRequests(page: Page) {
  const pending = new Set<Request>();
  const done = (r: Request) => pending.delete(r);
  page.on('request', (r) => pending.add(r));
  page.on('requestfinished', done);
  page.on('requestfailed', done);
  return {
    answered: () =>
      expect
        .poll(() => [...pending].map((r) => `${r.method()} ${r.url()}`), { message: 'requests of the page still unanswered', timeout: 15_000 })
        .toEqual([]),
  };
}
