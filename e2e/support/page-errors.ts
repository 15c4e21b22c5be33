import { expect, type Page } from '@playwright/test';

/** Collects console errors, page errors and failed requests, to assert that a page loaded cleanly. */
export function watchPageErrors(page: Page) {
  const problems: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error') problems.push(`console: ${m.text()}`);
  });
  page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
  page.on('requestfailed', (r) => {
    // sendBeacon and aborted navigations are not failures a visitor notices.
    const failure = r.failure()?.errorText ?? '';
    if (failure.includes('ERR_ABORTED')) return;
    problems.push(`requestfailed: ${r.url()} ${failure}`);
  });
  page.on('response', (r) => {
    if (r.status() >= 400 && r.request().resourceType() !== 'document') problems.push(`http ${r.status()}: ${r.url()}`);
  });
  return {
    problems,
    expectClean: () => expect(problems, problems.join('\n')).toEqual([]),
  };
}
