import { execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { DeployLogPage, DeployTokenCreated, ReleaseChange } from '@site/contracts/deploys';
import { chromium, devices, expect, expectHydrated, request, test, type APIRequestContext, type Browser, type Page } from '../support/test';
import { expectNoSeriousA11yViolations, isAxeWidth } from '../support/axe';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../support/chromium';
import { E2E_ADMIN_PASSWORD, REPO_ROOT } from '../support/env';
import { watchPageErrors } from '../support/page-errors';
import { releaseFrom } from '../support/releases';
import { startSiteServer, type RunningServer } from '../support/servers';

/*
 * A canary (issue 34) on a site of its own (its own SITE_ROOT and database: the suite's server never serves it): a blog
 * release whose heading reads differently is uploaded staged over HTTP with a deploy token and promoted to 30% of
 * visitors. A browser in the canary sees it on /blog (the server's HTML and after hydration) and keeps it as it moves
 * through the site; one outside it keeps the served blog. The admin's Deploys screen shows the canary with its live split
 * and both releases' error rates, and the staged uploads with their preview links, at 390 px in light and dark.
 */

const REMOTES = ['marketing', 'analysis', 'blog', 'admin'];
const HEADING = 'AI Automation Blog';
const CANARY_HEADING = 'AI Automation Blog, canary edition';
const CANARY = 'canary-e2e';
const STAGED = 'staged-e2e';
/** A person's desktop Chrome: what every request of this file's browser says (the server counts its pages). */
const PERSON = devices['Desktop Chrome'].userAgent;

test.describe.configure({ mode: 'serial' });

let siteRoot: string;
let site: RunningServer;
let browser: Browser;
let admin: APIRequestContext;
let served: string;

/** The blog's release each page's inlined remotes map names, and the page's first heading as the server sent it. */
async function pageOf(res: { text(): Promise<string> }) {
  const html = await res.text();
  const map = JSON.parse(/<script type="application\/json" id="remotes-manifest">([\s\S]*?)<\/script>/.exec(html)?.[1] ?? '{}') as Record<string, { version: string }>;
  return { blog: map.blog?.version, heading: /<h1[^>]*>([^<]*)<\/h1>/.exec(html)?.[1] };
}

test.beforeAll(async () => {
  test.setTimeout(90_000);
  // A site root of its own, holding the built dists; the blog's first release is its build, imported on the first start.
  siteRoot = mkdtempSync(path.join(os.tmpdir(), 'site-canary-'));
  cpSync(path.join(REPO_ROOT, 'shell/dist'), path.join(siteRoot, 'shell/dist'), { recursive: true });
  for (const name of REMOTES) {
    cpSync(path.join(REPO_ROOT, `mfe-${name}/dist`), path.join(siteRoot, `mfe-${name}/dist`), { recursive: true });
    symlinkSync(path.join(REPO_ROOT, `mfe-${name}/node_modules`), path.join(siteRoot, `mfe-${name}/node_modules`), 'dir');
  }
  symlinkSync(path.join(REPO_ROOT, 'shell/node_modules'), path.join(siteRoot, 'shell/node_modules'), 'dir');
  site = await startSiteServer((url) => ({ SITE_ROOT: siteRoot, PUBLIC_ORIGIN: url, ADMIN_PASSWORD: E2E_ADMIN_PASSWORD, RELEASE_IMPORT_BUILDS: 'first', RATE_LIMIT_MULTIPLIER: '100' }));
  browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: [...CHROMIUM_ARGS, `--user-agent=${PERSON}`] });

  admin = await request.newContext({ baseURL: site.url, userAgent: PERSON });
  const login = await admin.post('/api/admin/login', { headers: { origin: site.url }, data: { password: E2E_ADMIN_PASSWORD } });
  expect(login.status(), await login.text()).toBe(200);
  const made = await admin.post('/api/admin/deploy-tokens', { headers: { origin: site.url }, data: { name: 'blog CI', apps: ['blog'] } });
  expect(made.status(), await made.text()).toBe(201);
  const token = ((await made.json()) as DeployTokenCreated).token;
  served = (await pageOf(await admin.get('/blog'))).blog!;

  // Two staged releases made from the built blog, packed as CI would: one becomes the canary, one stays staged.
  const ci = await request.newContext({ baseURL: site.url });
  for (const [version, heading] of [
    [CANARY, CANARY_HEADING],
    [STAGED, 'AI Automation Blog, staged edition'],
  ] as const) {
    const out = path.join(siteRoot, 'builds', version);
    const edited = releaseFrom(path.join(REPO_ROOT, 'mfe-blog/dist'), out, (_file, text) => text.replace(new RegExp(`title:\\s*"${HEADING}"`, 'g'), `title: "${heading}"`));
    expect(edited.length, 'the heading is in the built chunks').toBeGreaterThan(0);
    const upload = await ci.post(`/api/releases/blog?stage=1&version=${version}`, {
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/gzip' },
      data: execFileSync('tar', ['-czf', '-', '-C', out, '.'], { maxBuffer: 64 * 1024 * 1024 }),
    });
    expect(upload.status(), await upload.text()).toBe(201);
  }
  const promoted = await ci.post('/api/releases/blog/promote', { headers: { authorization: `Bearer ${token}` }, data: { version: CANARY, percent: 30 } });
  expect(promoted.status(), await promoted.text()).toBe(200);
  expect((await promoted.json()) as ReleaseChange).toMatchObject({ version: CANARY, previous: served, percent: 30 });
  await ci.dispose();
});

test.afterAll(async () => {
  await admin?.dispose();
  await browser?.close();
  await site?.stop();
  if (siteRoot) rmSync(siteRoot, { recursive: true, force: true });
});

test('about 30% of fresh visitors get the canary, each keeping its release; a browser in it sees it rendered and hydrated', async () => {
  test.setTimeout(90_000);
  // Fresh visitors (a cookie jar each): the share in the canary, and each visitor's release on three pages in a row.
  let inCanary = 0;
  for (let i = 0; i < 40; i++) {
    const visitor = await request.newContext({ baseURL: site.url, userAgent: PERSON });
    const pages = [await pageOf(await visitor.get('/blog')), await pageOf(await visitor.get('/')), await pageOf(await visitor.get('/blog'))];
    const release = pages[0]!.blog;
    expect(pages.map((p) => p.blog)).toEqual([release, release, release]);
    expect(pages[0]!.heading).toBe(release === CANARY ? CANARY_HEADING : HEADING);
    if (release === CANARY) inCanary += 1;
    await visitor.dispose();
  }
  // 30% of 40: 12 expected; at 3 standard deviations, 4 to 20.
  expect(inCanary).toBeGreaterThanOrEqual(4);
  expect(inCanary).toBeLessThanOrEqual(20);

  // Real browsers until one falls in the canary and one outside it.
  const found: Record<'canary' | 'served', Page | undefined> = { canary: undefined, served: undefined };
  for (let tries = 0; tries < 30 && !(found.canary && found.served); tries++) {
    const page = await (await browser.newContext({ baseURL: site.url })).newPage();
    await page.goto('/blog');
    const which = (await page.getByRole('heading', { level: 1 }).textContent()) === CANARY_HEADING ? 'canary' : 'served';
    if (found[which]) await page.context().close();
    else found[which] = page;
  }
  const canaryPage = found.canary!;
  const errors = watchPageErrors(canaryPage);
  await expectHydrated(canaryPage);
  await expect(canaryPage.getByRole('heading', { level: 1 })).toHaveText(CANARY_HEADING);
  const bucket = (await canaryPage.context().cookies()).find((c) => c.name === 'site_bucket');
  expect(bucket).toMatchObject({ httpOnly: true, sameSite: 'Lax' });
  // Moving through the site in the browser (the shell's router, the inlined map) and coming back: still the canary.
  await canaryPage.goto('/');
  await canaryPage.getByRole('navigation').first().getByRole('link', { name: 'Blog' }).first().click();
  await expect(canaryPage).toHaveURL(/\/blog$/);
  await expect(canaryPage.getByRole('heading', { level: 1 })).toHaveText(CANARY_HEADING);
  await canaryPage.reload();
  await expect(canaryPage.getByRole('heading', { level: 1 })).toHaveText(CANARY_HEADING);
  errors.expectClean();
  await expect(found.served!.getByRole('heading', { level: 1 })).toHaveText(HEADING);

  // A browser error report of each release (what an error boundary sends), for the rates the owner reads: from each
  // browser, with the page-view token the server issued it (issue 51), as the shell's reports carry it.
  for (const [page, release] of [
    [found.canary!, CANARY],
    [found.served!, served],
  ] as const) {
    const answer = await page.evaluate(async (release) => {
      const { token } = (await (await fetch('/page-token.json')).json()) as { token: string };
      const events = [{ name: 'remote_error', props: { app: 'blog', release, kind: 'render', message: 'TypeError: a test failure' }, path: '/blog' }];
      const sent = await fetch('/api/events', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ events, token }) });
      return { status: sent.status, body: await sent.json() };
    }, release);
    expect(answer).toEqual({ status: 202, body: { accepted: true, recorded: 1 } });
  }
  // The same report without a token (what a script sends): accepted, not counted.
  const forged = await admin.post('/api/events', {
    headers: { origin: site.url },
    data: { name: 'remote_error', props: { app: 'blog', release: CANARY, kind: 'render', message: 'TypeError: forged' }, path: '/blog' },
  });
  expect(await forged.json()).toEqual({ accepted: true, recorded: 0 });
  for (const page of Object.values(found)) await page!.context().close();
});

test("the Deploys screen shows the canary's live split and both error rates, and the staged uploads' preview links, at 390 px in light and dark", async () => {
  test.setTimeout(90_000);
  const context = await browser.newContext({ baseURL: site.url, viewport: { width: 390, height: 900 } });
  const login = await context.request.post('/api/admin/login', { headers: { origin: site.url }, data: { password: E2E_ADMIN_PASSWORD } });
  expect(login.status()).toBe(200);
  const page = await context.newPage();
  const errors = watchPageErrors(page);

  // What the API says: the canary with its share and figures (every page above, counted against its release).
  const data = (await (await context.request.get('/api/admin/deploys?app=blog')).json()) as DeployLogPage;
  const canary = data.canaries?.[0];
  expect(canary).toMatchObject({ app: 'blog', version: CANARY, current: served, percent: 30, canary: { clientErrors: 1 }, served: { clientErrors: 1 } });
  expect(canary!.canary.pageViews).toBeGreaterThan(0);
  expect(canary!.served.pageViews).toBeGreaterThan(0);

  await page.goto('/admin/deploys');
  await expectHydrated(page);
  const panel = page.getByRole('region', { name: 'Canaries' });
  const item = panel.getByRole('article', { name: `Canary of blog ${CANARY}` });
  await expect(item).toContainText(`Live split: 30% of visitors get ${CANARY}, 70% keep ${served}.`);
  const box = (title: string) => item.getByRole('heading', { level: 4, name: new RegExp(`^${title}`) }).locator('..');
  await expect(box('Canary').getByRole('definition').last()).toHaveText(/^\d+(\.\d)?%$/);
  await expect(box('Served').getByRole('definition').last()).toHaveText(/^\d+(\.\d)?%$/);
  await expect(box('Canary')).toContainText('Browser errors1');
  // The log: the canary, and both staged uploads with their preview links (the canary's served to its share).
  const log = page.getByRole('region', { name: 'Deploy log' });
  await expect(log.getByRole('article', { name: `Canary of blog ${CANARY}: ok` })).toContainText(`serves ${CANARY} to 30% of visitors`);
  const canaryUpload = log.getByRole('article', { name: `Staged upload of blog ${CANARY}: ok` });
  await expect(canaryUpload).toContainText('Served to 30% of visitors as a canary.');
  await expect(canaryUpload.getByRole('link', { name: `Preview blog ${CANARY} (opens in a new tab)` })).toHaveAttribute('href', /\/blog\?preview=/);
  const stagedUpload = log.getByRole('article', { name: `Staged upload of blog ${STAGED}: ok` });
  await expect(stagedUpload).toContainText('Served to no one yet.');
  const stagedLink = stagedUpload.getByRole('link', { name: `Preview blog ${STAGED} (opens in a new tab)` });
  await expect(stagedLink).toHaveAttribute('href', /\/blog\?preview=/);

  for (const theme of ['light', 'dark'] as const) {
    if (theme === 'dark') {
      await page.getByRole('button', { name: /^Theme: Light/ }).click();
      await expect(page.locator('html')).toHaveClass(/\bdark\b/);
    }
    await page.setViewportSize({ width: 390, height: 900 });
    await page.evaluate(() => Promise.all(document.getAnimations().map((a) => a.finished.catch(() => undefined))));
    expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth), `deploys ${theme} wider than 390px`).toBeLessThanOrEqual(0);
    for (const part of [item, stagedLink]) {
      await part.scrollIntoViewIfNeeded();
      await expect(part).toBeVisible();
    }
    if (!process.env.CI) {
      await panel.screenshot({ path: test.info().outputPath(`canary-${theme}-390.png`) });
      await page.screenshot({ path: test.info().outputPath(`deploys-canary-${theme}-390.png`), fullPage: true });
      await log.getByRole('list').locator('li').nth(0).screenshot({ path: test.info().outputPath(`log-canary-entry-${theme}-390.png`) });
      await canaryUpload.screenshot({ path: test.info().outputPath(`log-canary-upload-${theme}-390.png`) });
    }
    // axe once per theme: light at desktop width, dark at phone width.
    for (const width of [390, 1280]) {
      if (!isAxeWidth(theme, width)) continue;
      await page.setViewportSize({ width, height: 900 });
      await expectNoSeriousA11yViolations(page, `deploys with a canary ${theme} ${width}px`);
      if (!process.env.CI && width === 1280) await panel.screenshot({ path: test.info().outputPath(`canary-${theme}-1280.png`) });
    }
  }
  errors.expectClean();
  await context.close();
});
