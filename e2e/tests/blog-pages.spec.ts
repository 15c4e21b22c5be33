import { createHmac } from 'node:crypto';
import type { Page } from '@playwright/test';
import { expect, expectHydrated, test, type APIRequestContext } from '../support/test';
import { postSchema } from '@site/contracts/posts';
import { adminGet, adminLogin, adminSend } from '../support/admin-api';
import { deferred } from '../support/deferred';
import { watchPageErrors } from '../support/page-errors';
import { E2E_WEBHOOK_SECRET } from '../support/env';
import { startSiteServer, type RunningServer } from '../support/servers';

// One file, in order: the listing counts are checked before the webhook adds posts.
test.describe.configure({ mode: 'serial' });

const SEEDED = {
  chatbots: 'How AI Chatbots Are Transforming Customer Service for Local Businesses',
  restaurant: 'Restaurant Automation: How a Danville Restaurant Streamlined Ordering',
  retail: 'Retail Automation: Smarter Inventory and Faster Checkout for Local Stores',
};

/** Signs and sends one webhook delivery, as n8n would. */
async function sendWebhook(request: APIRequestContext, body: Record<string, unknown>) {
  const raw = JSON.stringify(body);
  const t = Math.floor(Date.now() / 1000);
  const v1 = createHmac('sha256', E2E_WEBHOOK_SECRET).update(`${t}.${raw}`).digest('hex');
  return request.post('/api/webhook', {
    headers: { 'content-type': 'application/json', 'x-webhook-signature': `t=${t},v1=${v1}` },
    data: raw,
  });
}

const newPost = (title: string, extra: Record<string, unknown> = {}) => ({
  title,
  excerpt: 'A post delivered by the n8n workflow during the end-to-end test.',
  content: `<h2>From n8n</h2><p>${'This paragraph was written by an automated workflow. '.repeat(6)}</p>`,
  author: 'n8n Workflow',
  category: 'How-To Guides',
  metaDescription: 'A post delivered by the n8n workflow during the end-to-end test run.',
  keywords: ['n8n', 'webhook'],
  status: 'published',
  ...extra,
});

// The tests that count the list run on a server of their own, on a fresh database: the seeded three posts and nothing
// else (other spec files publish posts of their own on the shared server, for minutes, while these run).
let seeded: RunningServer;
test.beforeAll(async () => {
  seeded = await startSiteServer();
});
test.afterAll(async () => {
  await seeded?.stop();
});

test('the listing shows the seeded posts with search, toggling filters, counts and clear', async ({ page }) => {
  await listingShowsTheSeededPosts(page, seeded.url);
});

async function listingShowsTheSeededPosts(page: Page, base: string) {
  const errors = watchPageErrors(page);
  await page.goto(`${base}/blog`);
  await expect(page.getByRole('heading', { level: 1, name: 'AI Automation Blog' })).toBeVisible();
  const cards = page.getByRole('article');
  await expect(cards).toHaveCount(3);
  await expect(page.getByText('Showing 3 of 3 articles')).toBeVisible();
  // Newest first, with category, read time, author, date and views on the card.
  await expect(cards.first().getByRole('link', { name: SEEDED.chatbots })).toBeVisible();
  await expect(cards.first()).toContainText('AI Automation');
  await expect(cards.first()).toContainText('min read');
  await expect(cards.first()).toContainText('January 15, 2024');
  // Seeded with 1,250 views; other spec files running at the same time may have opened this post since.
  const views = Number((await cards.first().getByText(/(?<![\d,])[\d,]+ views?$/).textContent())!.replace(/\D/g, ''));
  expect(views).toBeGreaterThanOrEqual(1250);

  const search = page.getByPlaceholder('Search articles...');
  await search.fill('restaurant');
  await expect(cards).toHaveCount(1);
  await expect(page.getByText('Showing 1 of 3 articles')).toBeVisible();
  await expect(page).toHaveURL(/\?q=restaurant/);
  // The filtered view survives a reload.
  await page.reload();
  await expect(page.getByPlaceholder('Search articles...')).toHaveValue('restaurant');
  await expect(cards).toHaveCount(1);

  await page.getByRole('button', { name: 'Clear all filters' }).click();
  await expect(cards).toHaveCount(3);
  await expect(page.getByRole('button', { name: 'Clear all filters' })).toHaveCount(0);

  const caseStudies = page.getByRole('button', { name: 'Case Studies' });
  await caseStudies.click();
  await expect(caseStudies).toHaveAttribute('aria-pressed', 'true');
  await expect(cards).toHaveCount(1);
  await expect(cards.first()).toContainText(SEEDED.restaurant);
  await expect(page).toHaveURL(/category=case-studies/);
  await caseStudies.click();
  await expect(caseStudies).toHaveAttribute('aria-pressed', 'false');
  await expect(cards).toHaveCount(3);

  await page.getByRole('button', { name: 'How-To Guides' }).click();
  await expect(page.getByRole('heading', { name: 'No posts found' })).toBeVisible();
  await expect(page.getByText('Showing 0 of 3 articles')).toBeVisible();
  await page.getByRole('button', { name: 'Clear all filters' }).click();
  await search.fill('zzzz-nothing');
  await expect(page.getByRole('heading', { name: 'No posts found' })).toBeVisible();

  await expect(page.getByRole('link', { name: 'Schedule Free Consultation' })).toHaveAttribute('href', '/#contact');
  await expect(page.getByRole('link', { name: 'Calculate Your ROI' })).toHaveAttribute('href', '/roi-calculator');
  errors.expectClean();
}

test('a returning visitor sees the cached list at once; unparsable storage is ignored', async ({ page }) => {
  // The first visit keeps the list in storage.
  await page.goto(`${seeded.url}/blog`);
  await expect(page.getByRole('article')).toHaveCount(3);
  await expectHydrated(page);
  // Back later from another page (a full load: nothing in memory), coming to the blog in the page: the HTML of /blog
  // is not part of it, so the list on screen while the API is held back can only come from storage.
  const blogLink = () => page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Blog' });
  await page.goto(`${seeded.url}/local-services`);
  await expectHydrated(page);
  const apiHeld = deferred();
  await page.route('**/api/posts*', async (route) => {
    await apiHeld.promise;
    await route.continue();
  });
  try {
    await blogLink().click();
    await expect(page.getByRole('article')).toHaveCount(3);
  } finally {
    apiHeld.resolve();
  }
  await page.unrouteAll({ behavior: 'ignoreErrors' });

  // Storage that is not JSON is ignored: the list comes from the API as for a first visit.
  await page.evaluate(() => localStorage.setItem('blog:queries:v1', '{not json'));
  await page.goto(`${seeded.url}/local-services`);
  await expectHydrated(page);
  const answered = page.waitForResponse((response) => new URL(response.url()).pathname === '/api/posts');
  await blogLink().click();
  await answered;
  await expect(page.getByRole('article')).toHaveCount(3);
});

test('an API failure is visible and retryable', async ({ page }) => {
  let fail = true;
  await page.route('**/api/posts', (route) => (fail ? route.fulfill({ status: 500, contentType: 'application/json', body: '{"error":{"code":"internal_error","message":"Something went wrong on our side. Please try again later."}}' }) : route.continue()));
  // The first page of a visit arrives with its posts in the HTML (server rendering); the browser asks the API when
  // the visitor comes to the blog from another page, with nothing cached.
  await page.goto(`${seeded.url}/local-services`);
  await page.evaluate(() => localStorage.clear());
  await page.reload();
  // The click must be the shell's client-side navigation (a full page load would bring the posts in its HTML).
  await expectHydrated(page);
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Blog' }).click();
  await expect(page.getByRole('alert')).toContainText('We could not load the articles');
  fail = false;
  await page.getByRole('button', { name: 'Try again' }).click();
  await expect(page.getByRole('article')).toHaveCount(3);
});

test('a post page shows the article, its tags and views, and counts one view', async ({ page, request }) => {
  const errors = watchPageErrors(page);
  // The seeded restaurant post, on the server where it is the only case study (another spec may add one elsewhere).
  const before = (await (await request.get(`${seeded.url}/api/posts?category=case-studies`)).json()).posts[0];
  await page.goto(`${seeded.url}/blog`);
  await page.getByRole('link', { name: SEEDED.restaurant }).click();
  await expect(page.getByRole('heading', { level: 1, name: SEEDED.restaurant })).toBeVisible();
  await expect(page.getByRole('heading', { level: 2, name: 'The challenge' })).toBeVisible();
  await expect(page.getByRole('list', { name: 'Tags' })).toContainText('#restaurant automation');
  await expect(page.getByText(`${(before.views + 1).toLocaleString('en-US')} views`)).toBeVisible();
  const after = (await (await request.get(`${seeded.url}/api/posts?category=case-studies`)).json()).posts[0];
  expect(after.views).toBe(before.views + 1);
  await page.getByRole('link', { name: 'Back to Blog' }).first().click();
  await expect(page).toHaveURL(/\/blog$/);
  errors.expectClean();
});

test('the served HTML of a post carries its metadata; an unknown slug is a 404 with "Post Not Found"', async ({ page, request }) => {
  // The newest post of the seeded three (on the shared server another spec's post may be newer).
  const { posts } = await (await request.get(`${seeded.url}/api/posts`)).json();
  const html = await (await request.get(`${seeded.url}/blog/${posts[0].slug}`)).text();
  expect(html).toContain(`<title>${SEEDED.chatbots} | Tri-Valley AI Automation</title>`);
  expect(html).toContain('"@type":"Article"');

  const response = await page.goto(`${seeded.url}/blog/this-post-does-not-exist`);
  expect(response?.status()).toBe(404);
  await expect(page.getByRole('heading', { name: 'Post Not Found' })).toBeVisible();
  await expect(page.getByText("The blog post you're looking for doesn't exist.")).toBeVisible();
});

test('a category page lists its posts; an empty one says so', async ({ page }) => {
  // The seeded posts only: on the shared server another spec may publish into any category.
  await page.goto(`${seeded.url}/blog/category/industry-insights`);
  await expect(page.getByRole('heading', { level: 1, name: 'Industry Insights' })).toBeVisible();
  await expect(page.getByText('Discover 1 article about Industry Insights')).toBeVisible();
  await expect(page.getByRole('article')).toHaveCount(1);
  // Nothing published there: the spec's empty page, answered 404 and noindex (nothing for a search engine).
  const empty = await page.goto(`${seeded.url}/blog/category/how-to-guides`);
  expect(empty?.status()).toBe(404);
  await expect(page.locator('meta[name="robots"]')).toHaveAttribute('content', /noindex/);
  await expect(page.getByRole('heading', { level: 1, name: 'How-To Guides' })).toBeVisible();
  await expect(page.getByText('No articles found in How-To Guides')).toBeVisible();
  await expect(page.getByRole('heading', { name: 'No posts in this category' })).toBeVisible();
});

test('a post created through the signed webhook appears on /blog; a broken image shows the placeholder', async ({ page, request }) => {
  const res = await sendWebhook(request, newPost('Published by the n8n webhook', { featuredImage: 'https://127.0.0.1:9/missing.png' }));
  expect(res.status()).toBe(201);
  const result = await res.json();
  expect(result).toMatchObject({ slug: 'published-by-the-n8n-webhook', status: 'published' });

  const unsigned = await request.post('/api/webhook', { headers: { 'content-type': 'application/json' }, data: JSON.stringify(newPost('Unsigned post')) });
  expect(unsigned.status()).toBe(401);

  await page.goto('/blog');
  const card = page.getByRole('article').filter({ hasText: 'Published by the n8n webhook' });
  await expect(card).toBeVisible();
  // Every published post is shown: the three seeded, this one, and any another spec file published meanwhile.
  await expect(page.getByText(/^Showing (\d+) of \1 articles$/)).toBeVisible();
  expect(Number((await page.getByText(/^Showing \d+ of/).textContent())!.match(/\d+/)![0])).toBeGreaterThanOrEqual(4);
  const image = card.getByRole('img', { name: 'Image not available' });
  await expect(image).toBeVisible();
  await expect(image).toHaveAttribute('src', '/mfe/blog/placeholder.svg');
  // The placeholder's src is set when the image fails; it then loads: wait for that (a snapshot taken at once may be early).
  await expect.poll(() => image.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);
});

test('HTML with XSS payloads, written in the admin panel, is stored clean and renders without executing anything', async ({
  page,
  request,
}) => {
  const payloads = [
    '<script>window.__xss = 1; alert(1)</script>',
    '<img src="x" onerror="window.__xss = 2; alert(2)">',
    '<svg onload="window.__xss = 3; alert(3)"><circle r="5"/></svg>',
    '<a id="js-link" href="javascript:window.__xss = 4; alert(4)">click me</a>',
    '<iframe srcdoc="<script>parent.__xss = 5; alert(5)</script>"></iframe>',
    '<details open ontoggle="window.__xss = 6; alert(6)"><summary>s</summary></details>',
    '<math><mtext><table><mglyph><style><img src=x onerror="window.__xss = 7; alert(7)">',
    '<p style="background:url(javascript:alert(8))">styled</p>',
  ];
  // Through the admin API, as the post form sends it: created as a draft, then published.
  await adminLogin(request);
  const { title: _title, status: _status, ...fields } = newPost('XSS payload carrier post');
  const created = await adminSend(request, 'POST', '/api/admin/posts', {
    ...fields,
    title: 'XSS payload carrier post',
    content: `<h2>Safe heading</h2><p>Safe paragraph of the article. ${'It is long enough to pass the length rule. '.repeat(3)}</p>${payloads.join('')}`,
  });
  expect(created.status).toBe(201);
  const { id, slug } = postSchema.parse(created.body);
  expect((await adminSend(request, 'POST', `/api/admin/posts/${id}/publish`)).status).toBe(200);
  const stored = postSchema.parse(await adminGet(request, `/api/admin/posts/${id}`));
  expect(stored.content).toContain('<h2>Safe heading</h2>');
  expect(stored.content).not.toMatch(/<script|<iframe|<svg|<math|<style|onerror|onload|ontoggle|javascript:|style=/i);

  const dialogs: string[] = [];
  page.on('dialog', async (d) => {
    dialogs.push(d.message());
    await d.dismiss();
  });
  await page.goto(`/blog/${slug}`);
  await expect(page.getByRole('heading', { name: 'Safe heading' })).toBeVisible();
  const link = page.getByRole('link', { name: 'click me' });
  if (await link.count()) {
    expect(await link.getAttribute('href')).toBeNull();
    // Handled before the click returns: an alert from it would already be in `dialogs`.
    await link.click();
  }
  // Every way a payload could run has had its chance: the HTML parsed and loaded (goto waits for the `load` event:
  // scripts, frames, images that failed), the page's code hydrated it, and every image of the article has loaded or
  // failed (an onerror runs then).
  await expectHydrated(page);
  const article = page.locator('.post-content');
  await expect
    .poll(() => article.locator('img').evaluateAll((images) => images.every((img) => (img as HTMLImageElement).complete)))
    .toBe(true);
  expect(dialogs).toEqual([]);
  expect(await page.evaluate(() => (window as unknown as { __xss?: number }).__xss)).toBeUndefined();
  expect(await article.locator('script, iframe, svg, math, style, [onerror], [onload], [ontoggle], [style]').count()).toBe(0);
});
