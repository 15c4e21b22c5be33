import { expect, expectHydrated, test, type Page } from '../support/test';
import { watchPageErrors } from '../support/page-errors';
import { startSiteServer, type RunningServer } from '../support/servers';

/*
 * Issue 54, item 2: the canonical link and og:url name the site's origin (PUBLIC_ORIGIN), whatever host the page was
 * opened by. This file's server says its origin is http://localhost:<port>, and the browser opens it as
 * http://127.0.0.1:<port> (both loopback: a site reached through www and apex, or a CDN's name, is the same case).
 */

let site: RunningServer;
let publicOrigin: string;

test.beforeAll(async () => {
  test.setTimeout(60_000);
  site = await startSiteServer((url) => ({ PUBLIC_ORIGIN: url.replace('127.0.0.1', 'localhost') }));
  publicOrigin = site.url.replace('127.0.0.1', 'localhost');
});

test.afterAll(async () => {
  await site?.stop();
});

test.use({ viewport: { width: 1366, height: 900 } });

const headUrls = (page: Page) =>
  page.evaluate(() => ({
    canonical: Array.from(document.querySelectorAll('link[rel="canonical"]'), (l) => l.getAttribute('href')),
    ogUrl: Array.from(document.querySelectorAll<HTMLMetaElement>('meta[property="og:url"]'), (m) => m.content),
  }));

/** Canonical link and og:url are exactly the site's address of `path`, one of each. */
async function expectSiteUrls(page: Page, path: string) {
  const url = `${publicOrigin}${path}`;
  await expect.poll(() => headUrls(page), { message: `canonical and og:url of ${path}` }).toEqual({ canonical: [url], ogUrl: [url] });
}

test("a page opened at 127.0.0.1 keeps the site's origin in its canonical link and og:url, after hydration and after a click", async ({ page }) => {
  const errors = watchPageErrors(page);
  expect(new URL(site.url).hostname).toBe('127.0.0.1');
  await page.goto(`${site.url}/case-studies/restaurant-automation`);
  await expect(page.getByRole('heading', { level: 1, name: 'Restaurant Automation Case Study' })).toBeVisible();
  await expectHydrated(page);
  await expectSiteUrls(page, '/case-studies/restaurant-automation');

  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Blog' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'AI Automation Blog' })).toBeVisible();
  expect(new URL(page.url()).host).toBe(new URL(site.url).host);
  await expectSiteUrls(page, '/blog');

  await page.getByRole('contentinfo').getByRole('link', { name: 'San Ramon', exact: true }).click();
  await expect(page.getByRole('heading', { level: 1, name: /San Ramon/ })).toBeVisible();
  await expectSiteUrls(page, '/local-services/san-ramon-business-automation');
  // The structured data's URLs name the site too.
  const ld = await page.evaluate(() => Array.from(document.querySelectorAll('script[type="application/ld+json"]'), (s) => s.textContent ?? '').join(''));
  expect(ld).toContain(`"url":"${publicOrigin}/local-services/san-ramon-business-automation"`);
  expect(ld).not.toContain('127.0.0.1');
  errors.expectClean();
});
