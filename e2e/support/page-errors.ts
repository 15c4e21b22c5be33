import { expect, type Page } from '@playwright/test';

/**
 * Collects console errors, page errors and failed requests of the site's own resources, to assert that
 * a page loaded cleanly. Third-party content (an author's image URL that is down) is not the site failing:
 * the blog shows its placeholder for it.
 */
export function watchPageErrors(page: Page) {
  const problems: string[] = [];
  const ownOrigin = () => {
    try {
      return new URL(page.url()).origin;
    } catch {
      return '';
    }
  };
  const isOwn = (url: string | undefined) => {
    if (!url) return true;
    try {
      return new URL(url).origin === ownOrigin();
    } catch {
      return true;
    }
  };
  page.on('console', (m) => {
    // React's hydration warnings (a server/browser markup mismatch) fail a page even at warning level.
    if (m.type() === 'warning' && /hydrat|did not match/i.test(m.text())) {
      problems.push(`hydration: ${m.text()}`);
      return;
    }
    if (m.type() !== 'error') return;
    if (/^Failed to load resource/.test(m.text()) && !isOwn(m.location().url)) return;
    problems.push(`console: ${m.text()}`);
  });
  page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
  // Chrome reports a CSP violation that the page's code catches (e.g. an eval probe) only in DevTools' Issues.
  void page.addInitScript(() =>
    document.addEventListener('securitypolicyviolation', (e) => console.error(`CSP violation: ${e.violatedDirective} ${e.blockedURI}`)),
  );
  page.on('requestfailed', (r) => {
    // sendBeacon and aborted navigations are not failures a visitor notices.
    const failure = r.failure()?.errorText ?? '';
    if (failure.includes('ERR_ABORTED') || !isOwn(r.url())) return;
    problems.push(`requestfailed: ${r.url()} ${failure}`);
  });
  page.on('response', (r) => {
    if (r.status() >= 400 && r.request().resourceType() !== 'document' && isOwn(r.url())) problems.push(`http ${r.status()}: ${r.url()}`);
  });
  return {
    problems,
    expectClean: () => expect(problems, problems.join('\n')).toEqual([]),
  };
}
