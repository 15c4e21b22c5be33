import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { DeployTokenCreated, DevOverrideCreated } from '@site/contracts/deploys';
import { expect, expectHydrated, request, test, type Page } from '../support/test';
import { adminLogin, adminSend } from '../support/admin-api';
import { BASE_URL, REPO_ROOT } from '../support/env';
import { watchPageErrors } from '../support/page-errors';
import { releaseFrom } from '../support/releases';
import { startRemoteHost, type RunningServer } from '../support/servers';

/*
 * Local development against the live site (issue 52, item 7), on the suite's server: a developer's blog build (the
 * built blog with another heading) is served by a static server on 127.0.0.1 with CORS, as `npm run dev` serves its
 * watch build. The blog's deploy token asks for an override link naming that build's remote entry; the browser that
 * opens it is asked first (what would run, from where, until when), and once it presses Turn on renders the blog from
 * that server (the heading only that build has) under the override's banner, on every page but the admin's (loaded
 * from the server, even when reached inside the page), until it leaves; a second browser that opens the link and
 * presses Cancel gets the served blog. A plain http URL of another host is refused.
 */

const HEADING = 'AI Automation Blog';
const LOCAL_HEADING = 'AI Automation Blog, from a laptop';

test.describe('a development override of the blog, for one browser', () => {
  let host: RunningServer;
  let workDir: string;
  let token: string;
  let entryUrl: string;

  test.beforeAll(async () => {
    // The developer's build: the blog as built, with its heading changed (no build needed), served like `npm run dev`.
    workDir = mkdtempSync(path.join(os.tmpdir(), 'site-dev-override-'));
    const out = path.join(workDir, 'blog');
    const edited = releaseFrom(path.join(REPO_ROOT, 'mfe-blog/dist'), out, (_file, text) => text.replace(new RegExp(`title:\\s*"${HEADING}"`, 'g'), `title: "${LOCAL_HEADING}"`));
    expect(edited.length, 'the heading is in the built chunks').toBeGreaterThan(0);
    host = await startRemoteHost('blog', out);
    entryUrl = `${host.url}/mfe/blog/assets/remoteEntry.js`;

    const admin = await request.newContext({ baseURL: BASE_URL });
    await adminLogin(admin);
    const made = await adminSend<DeployTokenCreated>(admin, 'POST', '/api/admin/deploy-tokens', { name: `e2e dev override ${Date.now()}`, apps: ['blog'] });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    token = made.body.token;
    await admin.dispose();
  });

  test.afterAll(async () => {
    await host?.stop();
    rmSync(workDir, { recursive: true, force: true });
  });

  test("the link's browser renders the blog from the local build under a banner, on every page; another browser does not", async ({ browser }) => {
    test.setTimeout(60_000);
    const developer = await browser.newContext({ baseURL: BASE_URL });
    const asked = await developer.request.post('/api/releases/blog/dev-override', { headers: { authorization: `Bearer ${token}` }, data: { entryUrl } });
    expect(asked.status(), await asked.text()).toBe(201);
    const override = (await asked.json()) as DevOverrideCreated;
    expect(override.url).toMatch(new RegExp(`^${BASE_URL.replaceAll('.', '\\.')}/blog\\?dev-override=[\\w.-]+$`));

    const other = await browser.newContext({ baseURL: BASE_URL });
    const page = await developer.newPage();
    const otherPage = await other.newPage();
    const errors = [watchPageErrors(page), watchPageErrors(otherPage)];
    const fromHost: string[] = [];
    page.on('request', (r) => {
      if (r.url().startsWith(host.url)) fromHost.push(new URL(r.url()).pathname);
    });
    const heading = (p: Page) => p.getByRole('heading', { level: 1 });
    const banner = (p: Page) => p.getByRole('complementary', { name: 'Development override' });

    // The link asks first, and sets nothing until Turn on.
    await page.goto(override.url);
    await expect(heading(page)).toHaveText('Turn on a development override of blog?');
    await expect(page.getByText(`Development override for blog: this browser will run blog's code from ${host.url} instead of the site's release, until`)).toBeVisible();
    await expect(page.getByText('Only continue if you started this yourself.')).toBeVisible();
    expect((await developer.cookies()).map((c) => c.name)).not.toContain('site_dev_override');
    if (!process.env.CI) await page.screenshot({ path: test.info().outputPath('dev-override-confirmation.png') });
    await page.getByRole('button', { name: 'Turn on' }).click();
    await expect(page).toHaveURL(`${BASE_URL}/blog`);
    await expectHydrated(page);
    await expect(heading(page)).toHaveText(LOCAL_HEADING);
    await expect(banner(page)).toHaveText(`Development override: blog from ${host.url}, rendered in this browser only. Leave`);
    expect(fromHost, 'the remote entry and its chunks come from the local server').toContain('/mfe/blog/assets/remoteEntry.js');
    expect((await developer.cookies()).find((c) => c.name === 'site_dev_override')).toMatchObject({ httpOnly: true, sameSite: 'Lax' });
    if (!process.env.CI) await page.screenshot({ path: test.info().outputPath('blog-dev-override.png') });

    // Another browser at the same time, sent the same link, cancels: the served blog, no banner, no cookie.
    await otherPage.goto(override.url);
    await otherPage.getByRole('link', { name: 'Cancel' }).click();
    await expect(otherPage).toHaveURL(`${BASE_URL}/blog`);
    await expectHydrated(otherPage);
    expect((await other.cookies()).map((c) => c.name)).not.toContain('site_dev_override');
    await expect(heading(otherPage)).toHaveText(HEADING);
    await expect(banner(otherPage)).toHaveCount(0);

    // Every page of the site says so (the home page is another remote's), and the blog stays the local one.
    await page.goto('/');
    await expectHydrated(page);
    await expect(banner(page)).toBeVisible();
    await page.goto('/blog');
    await expect(heading(page)).toHaveText(LOCAL_HEADING);

    // Going to the admin inside the page (as the site's router does) loads it from the server: a new document, the
    // admin's login without the override, so the local build's code is not where the password is typed.
    await expectHydrated(page);
    await page.evaluate(() => {
      (window as { stillThisDocument?: boolean }).stillThisDocument = true;
      history.pushState(null, '', '/admin');
      dispatchEvent(new PopStateEvent('popstate'));
    });
    await expect(page.getByRole('heading', { name: 'Admin Access' })).toBeVisible();
    await expect(banner(page)).toHaveCount(0);
    expect(await page.evaluate(() => (window as { stillThisDocument?: boolean }).stillThisDocument)).toBeUndefined();
    await page.goto('/blog');
    await expect(heading(page)).toHaveText(LOCAL_HEADING);

    // Leaving: the banner's link clears the cookie; the served blog again.
    await banner(page).getByRole('link', { name: 'Leave' }).click();
    await expect(page).toHaveURL(`${BASE_URL}/blog`);
    await expectHydrated(page);
    await expect(banner(page)).toHaveCount(0);
    await expect(heading(page)).toHaveText(HEADING);
    expect((await developer.cookies()).map((c) => c.name)).not.toContain('site_dev_override');

    for (const e of errors) e.expectClean();
    await Promise.all([developer.close(), other.close()]);
  });

  test('a plain http URL of another host is refused', async () => {
    const ci = await request.newContext({ baseURL: BASE_URL });
    const refused = await ci.post('/api/releases/blog/dev-override', {
      headers: { authorization: `Bearer ${token}` },
      data: { entryUrl: 'http://192.168.1.20:5174/mfe/blog/assets/remoteEntry.js' },
    });
    expect(refused.status()).toBe(400);
    expect(((await refused.json()) as { error: { message: string } }).error.message).toContain('entryUrl must be https, or http on this computer');
    await ci.dispose();
  });
});
