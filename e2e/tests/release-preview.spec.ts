import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { DeployLogPage, DeployTokenCreated, ReleaseChange } from '@site/contracts/deploys';
import { expect, expectHydrated, request, test, type APIResponse, type Page } from '../support/test';
import { adminGet, adminLogin, adminSend } from '../support/admin-api';
import { expectNoSeriousA11yViolations, isAxeWidth } from '../support/axe';
import { BASE_URL, REPO_ROOT } from '../support/env';
import { watchPageErrors } from '../support/page-errors';
import { releaseFrom } from '../support/releases';

/*
 * Staged releases and preview links (issue 34), on the suite's server: a blog release whose heading reads differently
 * is uploaded staged over HTTP with a deploy token, as a team's CI does. The browser that opens its preview link sees
 * it on /blog (the server's HTML and after hydration) under the preview banner; another browser sees the served blog;
 * the render cache holds both pages; leaving the preview brings the served blog back. The admin's deploy log lists the
 * staged upload with its preview link, at 390 px in light and dark.
 */

const HEADING = 'AI Automation Blog';
const STAGED_HEADING = 'AI Automation Blog, staged edition';
/** Unique per run and per suite server (others may run on other ports from the same SITE_ROOT). */
const VERSION = `e2e-staged-${process.env.E2E_PORT ?? '3100'}-${Date.now()}`;

/** A preview link of the blog on the suite's server. */
const PREVIEW_LINK = new RegExp(`^${BASE_URL.replaceAll('.', '\\.')}/blog\\?preview=[\\w.-]+$`);

/** The first h1 of a page's HTML as the server sent it. */
const serverHeading = (html: string) => /<h1[^>]*>([^<]*)<\/h1>/.exec(html)?.[1];

/** What a cached page's answer says about itself, and what the HTML holds. */
async function answerOf(res: APIResponse) {
  expect(res.status()).toBe(200);
  const html = await res.text();
  return {
    renderCache: res.headers()['x-render-cache'],
    cacheControl: res.headers()['cache-control'],
    robots: res.headers()['x-robots-tag'],
    cdn: res.headers()['cdn-cache-control'],
    heading: serverHeading(html),
    banner: html.includes('id="release-preview"'),
    noindexMeta: /<meta name="robots" content="noindex"/.test(html),
    stagedEntry: html.includes(`remoteEntry.js?release=`),
  };
}

test.describe('a staged blog release, previewed by one browser only', () => {
  let previewUrl: string;
  let workDir: string;

  test.beforeAll(async () => {
    // The staged release: the blog as built with another heading, made from its dist (no build) and packed as CI would.
    workDir = mkdtempSync(path.join(os.tmpdir(), 'site-preview-'));
    const out = path.join(workDir, 'blog');
    const edited = releaseFrom(path.join(REPO_ROOT, 'mfe-blog/dist'), out, (_file, text) =>
      text.replace(new RegExp(`title:\\s*"${HEADING}"`, 'g'), `title: "${STAGED_HEADING}"`),
    );
    expect(edited.length, 'the heading is in the built chunks').toBeGreaterThan(0);
    const archive = execFileSync('tar', ['-czf', '-', '-C', out, '.'], { maxBuffer: 64 * 1024 * 1024 });

    // A deploy token for the blog, made by the admin; the upload goes with it, staged.
    const admin = await request.newContext({ baseURL: BASE_URL });
    await adminLogin(admin);
    const made = await adminSend<DeployTokenCreated>(admin, 'POST', '/api/admin/deploy-tokens', { name: `e2e preview ${VERSION}`, apps: ['blog'] });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    const ci = await request.newContext({ baseURL: BASE_URL });
    const upload = await ci.post(`/api/releases/blog?stage=1&version=${VERSION}`, {
      headers: { authorization: `Bearer ${made.body.token}`, 'content-type': 'application/gzip' },
      data: archive,
    });
    expect(upload.status(), await upload.text()).toBe(201);
    const change = (await upload.json()) as ReleaseChange;
    expect(change).toMatchObject({ app: 'blog', version: VERSION, staged: true });
    previewUrl = change.previewUrl!;
    expect(previewUrl).toMatch(PREVIEW_LINK);
    await Promise.all([admin.dispose(), ci.dispose()]);
  });

  test.afterAll(() => {
    rmSync(workDir, { recursive: true, force: true });
    // The suite's server keeps staged releases in the repository's SITE_ROOT: this run's goes with the run.
    rmSync(path.join(REPO_ROOT, 'mfe-blog/staged', VERSION), { recursive: true, force: true });
  });

  test('the preview link shows the staged blog to that browser alone, under a banner; leaving it restores the served blog', async ({ browser }) => {
    test.setTimeout(60_000);
    const previewer = await browser.newContext({ baseURL: BASE_URL });
    const other = await browser.newContext({ baseURL: BASE_URL });
    const page = await previewer.newPage();
    const otherPage = await other.newPage();
    const errors = [watchPageErrors(page), watchPageErrors(otherPage)];
    const heading = (p: Page) => p.getByRole('heading', { level: 1 });
    const banner = (p: Page) => p.getByRole('complementary', { name: 'Release preview' });

    // The link sets this browser's cookie and sends it to the page without the token.
    await page.goto(previewUrl);
    await expect(page).toHaveURL(`${BASE_URL}/blog`);
    await expect(heading(page)).toHaveText(STAGED_HEADING);
    await expectHydrated(page);
    await expect(heading(page)).toHaveText(STAGED_HEADING);
    await expect(banner(page)).toContainText(`Previewing blog ${VERSION}, a staged release: only this browser sees it.`);
    expect((await previewer.cookies()).find((c) => c.name === 'site_preview')).toMatchObject({ httpOnly: true, sameSite: 'Lax' });
    if (!process.env.CI) await page.screenshot({ path: test.info().outputPath('blog-previewed.png') });

    // Another browser, at the same time: the served blog, no banner.
    await otherPage.goto('/blog');
    await expect(heading(otherPage)).toHaveText(HEADING);
    await expectHydrated(otherPage);
    await expect(banner(otherPage)).toHaveCount(0);

    // The render cache holds both pages at once: each browser's next request is a hit, with its own release in the
    // server's HTML. The preview's is private (no CDN header) and noindex, and names the staged remote entry.
    // Another worker's test may publish a post meanwhile, which rightly empties /blog's entries: both are read again
    // (at most 5 rounds) until one round finds both in the cache; what each answer holds is checked below.
    let previewed = await answerOf(await page.request.get('/blog'));
    let served = await answerOf(await other.request.get('/blog'));
    for (let round = 1; round < 5 && (previewed.renderCache !== 'hit' || served.renderCache !== 'hit'); round++) {
      previewed = await answerOf(await page.request.get('/blog'));
      served = await answerOf(await other.request.get('/blog'));
    }
    expect(previewed).toEqual({
      renderCache: 'hit',
      cacheControl: 'private, no-cache',
      robots: 'noindex, nofollow',
      cdn: undefined,
      heading: STAGED_HEADING,
      banner: true,
      noindexMeta: true,
      stagedEntry: true,
    });
    expect(served).toMatchObject({ renderCache: 'hit', heading: HEADING, banner: false, noindexMeta: false, robots: undefined, stagedEntry: false });
    expect(served.cacheControl).not.toContain('private');

    // Leaving: the banner's link clears the cookie and comes back to the same page, served as to everyone.
    await banner(page).getByRole('link', { name: 'Leave the preview' }).click();
    await expect(page).toHaveURL(`${BASE_URL}/blog`);
    await expect(banner(page)).toHaveCount(0);
    await expect(heading(page)).toHaveText(HEADING);
    await expectHydrated(page);
    await expect(heading(page)).toHaveText(HEADING);
    expect((await previewer.cookies()).map((c) => c.name)).not.toContain('site_preview');
    let left = await answerOf(await page.request.get('/blog'));
    for (let round = 1; round < 5 && left.renderCache !== 'hit'; round++) left = await answerOf(await page.request.get('/blog'));
    expect(left).toMatchObject({ renderCache: 'hit', heading: HEADING, banner: false });

    for (const e of errors) e.expectClean();
    await Promise.all([previewer.close(), other.close()]);
  });

  test("the admin's deploy log lists the staged upload with its preview link, at 390 px in light and dark", async ({ browser }) => {
    test.setTimeout(60_000);
    const context = await browser.newContext({ baseURL: BASE_URL, viewport: { width: 390, height: 900 } });
    await adminLogin(context.request);
    const page = await context.newPage();
    const errors = watchPageErrors(page);

    // What the API says of it: the staged upload, with a preview link (a fresh one each time it is read).
    const log = await adminGet<DeployLogPage>(context.request, '/api/admin/deploys?app=blog');
    const staged = log.entries.find((e) => e.action === 'stage' && e.version === VERSION);
    expect(staged).toMatchObject({ app: 'blog', result: 'ok', previewUrl: expect.stringMatching(PREVIEW_LINK) });

    await page.goto('/admin/deploys');
    await expectHydrated(page);
    const entry = page.getByRole('region', { name: 'Deploy log' }).getByRole('article', { name: `Staged upload of blog ${VERSION}: ok` });
    await expect(entry).toContainText('Served to no one yet.');
    const link = entry.getByRole('link', { name: `Preview blog ${VERSION} (opens in a new tab)` });
    await expect(link).toHaveAttribute('href', PREVIEW_LINK);
    await expect(link).toHaveAttribute('target', '_blank');

    for (const theme of ['light', 'dark'] as const) {
      if (theme === 'dark') {
        await page.getByRole('button', { name: /^Theme: Light/ }).click();
        await expect(page.locator('html')).toHaveClass(/\bdark\b/);
      }
      await page.setViewportSize({ width: 390, height: 900 });
      await entry.scrollIntoViewIfNeeded();
      await expect(link).toBeVisible();
      await page.evaluate(() => Promise.all(document.getAnimations().map((a) => a.finished.catch(() => undefined))));
      expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth), `deploys ${theme} wider than 390px`).toBeLessThanOrEqual(0);
      // The link's row fits its entry at phone width.
      const [entryBox, linkBox] = [await entry.boundingBox(), await link.boundingBox()];
      expect(linkBox!.x + linkBox!.width).toBeLessThanOrEqual(entryBox!.x + entryBox!.width + 0.5);
      if (!process.env.CI) await entry.screenshot({ path: test.info().outputPath(`deploy-log-staged-${theme}-390.png`) });
      if (!process.env.CI) await page.screenshot({ path: test.info().outputPath(`deploys-${theme}-390.png`), fullPage: true });
      // axe once per theme: light at desktop width, dark at phone width.
      for (const width of [390, 1280]) {
        if (!isAxeWidth(theme, width)) continue;
        await page.setViewportSize({ width, height: 900 });
        await expectNoSeriousA11yViolations(page, `deploys with a staged upload ${theme} ${width}px`);
      }
    }

    // The listed link works as the upload's did: it sets the preview cookie and sends the browser to /blog.
    const opened = await context.request.get((await link.getAttribute('href'))!, { maxRedirects: 0 });
    expect(opened.status()).toBe(303);
    expect(opened.headers()['location']).toBe('/blog');
    expect(opened.headers()['set-cookie']).toMatch(/^site_preview=[^;]+;/);

    errors.expectClean();
    await context.close();
  });
});
