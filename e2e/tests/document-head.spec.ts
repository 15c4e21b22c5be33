import { expect, expectHydrated, test, type Page } from '../support/test';
import { BASE_URL } from '../support/env';
import { watchPageErrors } from '../support/page-errors';

/*
 * One owner of the document head: after a click to another page, the head (title, description, keywords,
 * canonical, robots, Open Graph tags, JSON-LD) is exactly the head the server writes for that URL, every URL in it
 * absolute, one JSON-LD block at most; a page loaded fresh keeps the server's head as it is.
 */

const POST = '/blog/how-ai-chatbots-are-transforming-customer-service-for-local-businesses';

/** The head as a visitor's tools read it: from the live document, or from HTML the server sent. */
type Head = {
  title: string;
  meta: Record<string, string[]>;
  canonical: string[];
  jsonLd: unknown[];
};

function readHeadIn(doc: Document): Head {
  const meta: Record<string, string[]> = {};
  for (const key of ['description', 'keywords', 'robots', 'twitter:card', 'og:title', 'og:description', 'og:url', 'og:type', 'og:image']) {
    const attr = key.startsWith('og:') ? 'property' : 'name';
    const values = Array.from(doc.querySelectorAll<HTMLMetaElement>(`meta[${attr}="${key}"]`), (m) => m.content);
    if (values.length) meta[key] = values;
  }
  return {
    title: doc.title,
    meta,
    canonical: Array.from(doc.querySelectorAll('link[rel="canonical"]'), (l) => l.getAttribute('href') ?? ''),
    // Anywhere in the document, body included: a crawler reads them all.
    jsonLd: Array.from(doc.querySelectorAll('script[type="application/ld+json"]'), (s) => JSON.parse(s.textContent ?? 'null') as unknown),
  };
}

const liveHead = (page: Page) => page.evaluate(`(${readHeadIn.toString()})(document)`) as Promise<Head>;

/** The head the server writes into the HTML of `path` (fetched without a browser, parsed by the browser's parser). */
async function serverHead(page: Page, path: string): Promise<Head> {
  const res = await page.request.get(path);
  expect(res.status(), path).toBe(200);
  const html = await res.text();
  return page.evaluate(`(${readHeadIn.toString()})(new DOMParser().parseFromString(${JSON.stringify(html)}, 'text/html'))`) as Promise<Head>;
}

const URL_KEYS = new Set(['url', '@id', 'image', 'logo', 'sameAs', 'mainEntityOfPage']);

/** Every URL-valued string of the head: canonical, og:url/og:image and JSON-LD's URL fields. */
function urlsOf(head: Head): string[] {
  const urls = [...head.canonical, ...(head.meta['og:url'] ?? []), ...(head.meta['og:image'] ?? [])];
  const walk = (value: unknown, key: string) => {
    if (typeof value === 'string' && URL_KEYS.has(key)) urls.push(value);
    else if (Array.isArray(value)) value.forEach((v) => walk(v, key));
    else if (value && typeof value === 'object') for (const [k, v] of Object.entries(value)) walk(v, k);
  };
  head.jsonLd.forEach((v) => walk(v, ''));
  return urls;
}

/** The live head is the server's head of `path`: all of it, nothing of the page before, URLs absolute. */
async function expectHeadOf(page: Page, path: string) {
  const expected = await serverHead(page, path);
  expect(expected.canonical, `the server writes a canonical link for ${path}`).toEqual([`${BASE_URL}${path}`]);
  await expect.poll(() => liveHead(page), { message: `head after navigating to ${path}` }).toEqual(expected);
  const head = await liveHead(page);
  expect(head.jsonLd.length, `JSON-LD blocks on ${path}`).toBeLessThanOrEqual(1);
  for (const url of urlsOf(head)) expect(url, `a URL in the head of ${path}`).toMatch(/^https?:\/\//);
}

test.use({ viewport: { width: 1366, height: 900 } });

test('a case study, then a click to /blog: the whole head is the blog\'s (no case-study canonical or Service JSON-LD left)', async ({ page }) => {
  const errors = watchPageErrors(page);
  await page.goto('/case-studies/restaurant-automation');
  await expect(page.getByRole('heading', { level: 1, name: 'Restaurant Automation Case Study' })).toBeVisible();
  // The page's code has run (and had its chance to change the head) before the head is compared.
  await expectHydrated(page);
  await expectHeadOf(page, '/case-studies/restaurant-automation');

  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Blog' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'AI Automation Blog' })).toBeVisible();
  await expectHeadOf(page, '/blog');
  const head = await liveHead(page);
  expect(JSON.stringify(head)).not.toContain('restaurant-automation');
  expect(JSON.stringify(head.jsonLd)).not.toContain('"Service"');
  errors.expectClean();
});

test('a fresh city page has exactly one JSON-LD block; a click to another city replaces all of its head', async ({ page }) => {
  const errors = watchPageErrors(page);
  await page.goto('/local-services/danville-ai-automation');
  await expect(page.getByRole('heading', { level: 1, name: /Danville/ })).toBeVisible();
  await expectHydrated(page);
  const first = await liveHead(page);
  expect(first.jsonLd).toHaveLength(1);
  await expectHeadOf(page, '/local-services/danville-ai-automation');

  await page.getByRole('contentinfo').getByRole('link', { name: 'San Ramon', exact: true }).click();
  await expect(page.getByRole('heading', { level: 1, name: /San Ramon/ })).toBeVisible();
  await expectHeadOf(page, '/local-services/san-ramon-business-automation');
  const head = await liveHead(page);
  expect(head.jsonLd).toHaveLength(1);
  expect(JSON.stringify(head)).not.toContain('danville-ai-automation');
  errors.expectClean();
});

test('from /blog to a post and back to /blog: each time the head is the page\'s own', async ({ page }) => {
  const errors = watchPageErrors(page);
  await page.goto('/blog');
  await expect(page.getByRole('heading', { level: 1, name: 'AI Automation Blog' })).toBeVisible();
  await page.getByRole('link', { name: 'How AI Chatbots Are Transforming Customer Service for Local Businesses' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'How AI Chatbots Are Transforming Customer Service for Local Businesses' })).toBeVisible();
  await expectHeadOf(page, POST);
  expect((await liveHead(page)).jsonLd).toEqual([expect.objectContaining({ '@type': 'Article' })]);

  await page.getByRole('link', { name: 'Back to Blog' }).first().click();
  await expect(page.getByRole('heading', { level: 1, name: 'AI Automation Blog' })).toBeVisible();
  await expectHeadOf(page, '/blog');
  expect(JSON.stringify(await liveHead(page))).not.toContain('Article');
  errors.expectClean();
});

test('a post loaded fresh keeps the server\'s head; an unknown page is noindex with no canonical or JSON-LD', async ({ page }) => {
  await page.goto(POST);
  await expect(page.getByRole('heading', { level: 1, name: /AI Chatbots/ })).toBeVisible();
  await expectHydrated(page);
  await expectHeadOf(page, POST);

  await page.getByRole('link', { name: 'Back to Blog' }).first().click();
  await expect(page.getByRole('heading', { level: 1, name: 'AI Automation Blog' })).toBeVisible();
  await page.evaluate(() => {
    history.pushState({}, '', '/no-such-page-here');
    dispatchEvent(new PopStateEvent('popstate'));
  });
  await expect(page.getByRole('heading', { level: 1, name: 'Oops! Page not found' })).toBeVisible();
  await expect.poll(() => liveHead(page)).toEqual({ title: 'Page not found | Tri-Valley AI Automation', meta: { robots: ['noindex'] }, canonical: [], jsonLd: [] });
});
