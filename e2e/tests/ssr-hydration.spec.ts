import { copyFileSync, cpSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { REPO_ROOT } from '../support/env';
import { HYDRATION_POST, HYDRATION_ROUTES } from '../support/hydration-routes';
import { builtManifests } from '../support/manifests';
import { watchRequests } from '../support/network';
import { watchPageErrors } from '../support/page-errors';
import { startSiteServer, type RunningServer } from '../support/servers';
import { expectHydrated } from '../support/test';

// Public pages arrive as HTML rendered on the server (shell + the page's remote) and are hydrated by the same code:
// no hydration mismatch, no console error, interactive afterwards, and readable with JavaScript off.

const POST = HYDRATION_POST;
const ROUTES = HYDRATION_ROUTES;
/** The page titles the build declares, by path. */
const titles = new Map(builtManifests().flatMap((m) => (m.pages ?? []).map((p) => [p.path, p.title] as const)));

/**
 * Opens `path` and waits until the remote's code has hydrated the server's HTML (its ./App ran in the browser) and
 * every request the page made meanwhile is answered (a failed one would be among the errors).
 */
async function openHydrated(page: Page, path: string) {
  const requests = watchRequests(page);
  const res = await page.goto(path);
  expect(res?.status(), `${path} answers 200`).toBe(200);
  await expect(page.locator('#root[data-ssr]'), 'the server rendered the page').toBeAttached();
  // The remote's area stays server HTML until its code has loaded and hydrated it; then the page is marked live.
  await expectHydrated(page);
  await requests.answered();
}

async function createReport(page: Page): Promise<string> {
  const res = await page.request.post('/api/analyze-smb-business', { data: { businessName: 'Hydration Test Bakery', location: 'Danville, CA' } });
  expect(res.status()).toBe(200);
  const { id } = (await res.json()) as { id: string };
  return `/free-analysis/report/${id}`;
}

for (const route of ROUTES) {
  test(`${route.path} answers 200 and hydrates the server's HTML with no error or warning`, async ({ page }) => {
    const errors = watchPageErrors(page);
    await openHydrated(page, route.path);
    await expect(page.getByRole('heading', { level: 1, name: route.h1 }).first()).toBeVisible();
    await expect(page.locator('main')).toContainText(route.text);
    // The route table's check (foundation-routes.spec.ts leaves these pages to this test): the title the manifest declares.
    const title = titles.get(route.path);
    if (title) expect(await page.title()).toBe(title);
    // Nothing the server rendered was thrown away and rendered again: React kept the server's nodes.
    errors.expectClean();
  });
}

test('a shared report hydrates with the report the server embedded, without fetching it again', async ({ page }) => {
  const path = await createReport(page);
  const errors = watchPageErrors(page);
  const fetched: string[] = [];
  page.on('request', (r) => {
    if (r.url().includes('/api/analyses/')) fetched.push(r.url());
  });
  await openHydrated(page, path);
  await expect(page.getByRole('heading', { level: 1 }).first()).toContainText('Hydration Test Bakery');
  expect(fetched).toEqual([]);
  errors.expectClean();
});

test('the page is interactive once hydrated: the theme toggle and a header link work', async ({ page }) => {
  const errors = watchPageErrors(page);
  await openHydrated(page, '/local-services');
  const toggle = page.getByRole('button', { name: /^Theme: Light/ });
  await toggle.click();
  await expect(page.locator('html')).toHaveClass(/dark/);
  await expect(page.getByRole('button', { name: /^Theme: Dark/ })).toBeVisible();
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Blog' }).click();
  await expect(page).toHaveURL(/\/blog$/);
  await expect(page.getByRole('heading', { level: 1, name: 'AI Automation Blog' })).toBeVisible();
  errors.expectClean();
});

test('a stored dark theme paints dark from the first frame and the toggle shows it after hydration', async ({ page }) => {
  const errors = watchPageErrors(page);
  await page.addInitScript(() => localStorage.setItem('theme', 'dark'));
  await openHydrated(page, '/roi-calculator');
  await expect(page.locator('html')).toHaveClass(/dark/);
  await expect(page.getByRole('button', { name: /^Theme: Dark/ })).toBeVisible();
  errors.expectClean();
});

test("before the page's code has loaded, the theme toggle already shows the stored preference", async ({ page }) => {
  // No script file loads (the inline theme script still runs): the server's markup as a visitor sees it first.
  await page.route(/\.js(\?.*)?$/, (route) => route.abort());
  const toggle = page.locator('header button[aria-label^="Theme:"]').first();
  for (const [stored, shown] of [['dark', 'dark'], ['system', 'system'], [null, 'light']] as const) {
    await page.addInitScript((value) => (value ? localStorage.setItem('theme', value) : localStorage.removeItem('theme')), stored);
    await page.goto('/roi-calculator');
    await expect(toggle.locator(`svg[data-theme-icon="${shown}"]`)).toBeVisible();
    await expect(toggle.locator('svg[data-theme-icon]:visible')).toHaveCount(1);
  }
});

test('the blog list hydrates from the embedded posts: no request to /api/posts on load', async ({ page }) => {
  const errors = watchPageErrors(page);
  const lists: string[] = [];
  page.on('request', (r) => {
    if (new URL(r.url()).pathname === '/api/posts') lists.push(r.url());
  });
  await openHydrated(page, '/blog');
  // (Other spec files may have published more posts by now.)
  await expect(page.getByRole('article').first()).toBeVisible();
  await expect(page.getByText(/^Showing \d+ of \d+ articles$/)).toBeVisible();
  expect(lists).toEqual([]);
  errors.expectClean();
});

test('a post hydrates from the embedded post: it is not fetched again', async ({ page }) => {
  const errors = watchPageErrors(page);
  const fetched: string[] = [];
  page.on('request', (r) => {
    if (r.method() === 'GET' && new URL(r.url()).pathname.startsWith('/api/posts/')) fetched.push(r.url());
  });
  await openHydrated(page, POST.path);
  await expect(page.getByRole('heading', { level: 1, name: POST.h1 })).toBeVisible();
  expect(fetched).toEqual([]);
  errors.expectClean();
});

test('an unknown URL, post and report answer 404 with their not-found page, hydrated cleanly', async ({ page }) => {
  for (const [path, heading] of [
    ['/no-such-page-here', 'Oops! Page not found'],
    ['/blog/no-such-post-here', 'Post Not Found'],
    ['/free-analysis/report/doesnotexist42', 'Report not found'],
  ]) {
    const errors = watchPageErrors(page);
    const fetched: string[] = [];
    page.on('request', (r) => {
      if (new URL(r.url()).pathname.startsWith('/api/')) fetched.push(r.url());
    });
    const requests = watchRequests(page);
    const res = await page.goto(path);
    expect(res?.status()).toBe(404);
    expect(await res!.text()).toContain(`${heading}</h1>`);
    // Hydrated, and every request made meanwhile answered: one to the API would be in `fetched` by then.
    await expectHydrated(page);
    await requests.answered();
    await expect(page.getByRole('heading', { level: 1, name: heading })).toBeVisible();
    // The browser does not ask the API again for what the server already answered 404.
    expect(fetched.filter((u) => !u.endsWith('/api/events'))).toEqual([]);
    // The console reports the page's own 404 status; any other failed request is still caught (`http 404: …`).
    const problems = errors.problems.filter((p) => !p.startsWith('console: Failed to load resource: the server responded with a status of 404'));
    expect(problems, problems.join('\n')).toEqual([]);
  }
});

test.describe('with JavaScript disabled', () => {
  test.use({ javaScriptEnabled: false });

  for (const route of ROUTES) {
    test(`${route.path} still shows its heading and text`, async ({ page }) => {
      await page.goto(route.path);
      await expect(page.getByRole('heading', { level: 1, name: route.h1 }).first()).toBeVisible();
      await expect(page.locator('main')).toContainText(route.text);
    });
  }
});

test.describe('a remote whose server entry fails', () => {
  // A deployment of its own (the suite's server is never touched): the blog's server entry throws, or answers late.
  let siteRoot: string;
  let site: RunningServer;

  const deployBlogEntry = (render: string) =>
    writeFileSync(
      path.join(siteRoot, 'mfe-blog/dist/server/entry.js'),
      `export { routes } from './real-entry.js';\nexport async function render() {\n${render}\n}\n`,
    );

  test.beforeAll(async () => {
    siteRoot = mkdtempSync(path.join(os.tmpdir(), 'ssr-fallback-'));
    for (const dir of ['shell', 'mfe-marketing', 'mfe-analysis', 'mfe-admin']) {
      mkdirSync(path.join(siteRoot, dir));
      symlinkSync(path.join(REPO_ROOT, dir, 'dist'), path.join(siteRoot, dir, 'dist'), 'dir');
    }
    cpSync(path.join(REPO_ROOT, 'mfe-blog/dist'), path.join(siteRoot, 'mfe-blog/dist'), { recursive: true });
    copyFileSync(path.join(REPO_ROOT, 'mfe-blog/dist/server/entry.js'), path.join(siteRoot, 'mfe-blog/dist/server/real-entry.js'));
    // React for the server entries, where a SITE_ROOT must have it.
    symlinkSync(path.join(REPO_ROOT, 'shell/node_modules'), path.join(siteRoot, 'node_modules'), 'dir');
    deployBlogEntry("throw new Error('a broken build');");
    site = await startSiteServer({ SITE_ROOT: siteRoot, SSR_TIMEOUT_MS: '150' });
  });
  test.afterAll(async () => {
    await site?.stop();
    rmSync(siteRoot, { recursive: true, force: true });
  });

  for (const kind of ['throws', 'is slower than the budget']) {
    test(`the page still renders when it ${kind}: the shell from the server, the blog in the browser, no error`, async ({ page, request }) => {
      if (kind !== 'throws') deployBlogEntry('await new Promise((resolve) => setTimeout(resolve, 3000));\nthrow new Error("too late");');
      const raw = await request.get(`${site.url}/blog`);
      expect(raw.status()).toBe(200);
      const html = await raw.text();
      expect(html).toContain('data-ssr');
      expect(html).toContain('Skip to content');
      expect(html).not.toContain('<h1 class="max-w-3xl text-4xl font-extrabold tracking-tight text-fg sm:text-5xl">AI Automation Blog</h1>');

      const errors = watchPageErrors(page);
      await page.goto(`${site.url}/blog`);
      await expect(page.getByRole('heading', { level: 1, name: 'AI Automation Blog' })).toBeVisible({ timeout: 15_000 });
      await expect(page.getByRole('article')).toHaveCount(3);
      await page.getByRole('button', { name: /^Theme: Light/ }).click();
      await expect(page.locator('html')).toHaveClass(/dark/);
      errors.expectClean();
    });
  }
});
