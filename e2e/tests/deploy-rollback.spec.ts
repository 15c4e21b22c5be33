import { execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test, type Page } from '../support/test';
import { E2E_ADMIN_PASSWORD, REPO_ROOT } from '../support/env';
import { watchPageErrors } from '../support/page-errors';
import { releaseFrom } from '../support/releases';
import { startSiteServer, type RunningServer } from '../support/servers';

const REMOTES = ['marketing', 'analysis', 'blog', 'admin'];
const HEADING = 'AI Automation Blog';
const NEW_HEADING = 'AI Automation Blog, new edition';

/** `npm run deploy -- …` / `npm run rollback -- …` on the test's own SITE_ROOT: what an operator runs. */
function deployScript(siteRoot: string, ...args: string[]): string {
  return execFileSync(process.execPath, [path.join(REPO_ROOT, 'scripts/deploy-remote.mjs'), ...args], {
    env: { ...process.env, SITE_ROOT: siteRoot },
    encoding: 'utf8',
  });
}

/**
 * A rebuilt blog whose page heading reads differently, made from the built dist (no build): the heading changed in
 * the browser and server chunks, under new content hashes (support/releases.ts).
 */
function blogWithNewHeading(dist: string, out: string): void {
  const edited = releaseFrom(dist, out, (_file, text) => text.replace(new RegExp(`title:\\s*"${HEADING}"`, 'g'), `title: "${NEW_HEADING}"`));
  expect(edited.length, 'the heading is in the built chunks').toBeGreaterThan(0);
}

/** What the admin reads of the blog in /api/health (anyone else sees its version only). */
async function blogVersion(page: Page, url: string): Promise<{ version?: string; failedRelease?: { version?: string } }> {
  const login = await page.request.post(`${url}/api/admin/login`, { headers: { origin: url }, data: { password: E2E_ADMIN_PASSWORD } });
  expect(login.status(), await login.text()).toBe(200);
  const health = await (await page.request.get(`${url}/api/health`)).json();
  return health.remotes.blog as { version?: string; failedRelease?: { version?: string } };
}

test.describe('deploying one remote as a release, and rolling it back', () => {
  let siteRoot: string;
  let site: RunningServer;

  test.beforeAll(async () => {
    // A site root of its own (the suite's server is never touched), holding the built dists.
    siteRoot = mkdtempSync(path.join(os.tmpdir(), 'site-deploy-'));
    cpSync(path.join(REPO_ROOT, 'shell/dist'), path.join(siteRoot, 'shell/dist'), { recursive: true });
    for (const name of REMOTES) {
      cpSync(path.join(REPO_ROOT, `mfe-${name}/dist`), path.join(siteRoot, `mfe-${name}/dist`), { recursive: true });
      // Server modules import react, react-dom and react-router-dom from the node_modules above them.
      symlinkSync(path.join(REPO_ROOT, `mfe-${name}/node_modules`), path.join(siteRoot, `mfe-${name}/node_modules`), 'dir');
    }
    blogWithNewHeading(path.join(siteRoot, 'mfe-blog/dist'), path.join(siteRoot, 'builds/blog-new-heading'));
    // The blog as built is the first release; the server starts on it.
    deployScript(siteRoot, 'deploy', 'blog', '--from', path.join(siteRoot, 'mfe-blog/dist'), '--version', 'as-built');
    site = await startSiteServer((url) => ({ SITE_ROOT: siteRoot, PUBLIC_ORIGIN: url, ADMIN_PASSWORD: E2E_ADMIN_PASSWORD, RELEASE_IMPORT_BUILDS: 'first' }));
  });
  test.afterAll(async () => {
    await site?.stop();
    rmSync(siteRoot, { recursive: true, force: true });
  });

  test('a new release is on the next page load with no restart; a half-written one never; rollback brings the old heading back', async ({ page }) => {
    test.setTimeout(60_000);
    const errors = watchPageErrors(page);
    const heading = page.getByRole('heading', { level: 1 });

    await page.goto(`${site.url}/blog`);
    await expect(heading).toHaveText(HEADING);
    expect(await blogVersion(page, site.url)).toEqual({ version: 'as-built', remoteEntry: 'ok', serverEntry: 'ok', pointer: 'as-built', since: expect.any(String), errors: expect.objectContaining({ failing: false }) });

    const deployed = deployScript(siteRoot, 'deploy', 'blog', '--from', path.join(siteRoot, 'builds/blog-new-heading'), '--version', 'new-heading');
    expect(deployed).toContain('current: as-built -> new-heading');
    // Another process's deploy: the server sees it at its once-a-second look at the release folder.
    await expect.poll(async () => (await blogVersion(page, site.url)).version, { timeout: 5000 }).toBe('new-heading');
    await page.goto(`${site.url}/blog`);
    await expect(heading).toHaveText(NEW_HEADING);
    // The server's HTML (no JavaScript) says so too once the blog renders on the server.
    const serverHeading = /<h1[^>]*>([^<]*)<\/h1>/.exec(await (await page.request.get(`${site.url}/blog`)).text())?.[1];
    if (serverHeading !== undefined) expect(serverHeading).toBe(NEW_HEADING);
    expect(await blogVersion(page, site.url)).toEqual({ version: 'new-heading', remoteEntry: 'ok', serverEntry: 'ok', pointer: 'new-heading', since: expect.any(String), errors: expect.objectContaining({ failing: false }) });

    // A pointer naming a release that is not there (a deploy that died mid-way) changes nothing a visitor sees.
    writeFileSync(path.join(siteRoot, 'mfe-blog/current'), 'half-copied\n');
    await expect.poll(async () => (await blogVersion(page, site.url)).failedRelease?.version, { timeout: 5000 }).toBe('half-copied');
    await page.goto(`${site.url}/blog`);
    await expect(heading).toHaveText(NEW_HEADING);
    expect(await blogVersion(page, site.url)).toMatchObject({ version: 'new-heading', lastKnownGood: 'new-heading', failedRelease: { version: 'half-copied' } });
    writeFileSync(path.join(siteRoot, 'mfe-blog/current'), 'new-heading\n');

    const rolledBack = deployScript(siteRoot, 'rollback', 'blog');
    expect(rolledBack).toContain('current: new-heading -> as-built');
    await expect.poll(async () => (await blogVersion(page, site.url)).version, { timeout: 5000 }).toBe('as-built');
    await page.goto(`${site.url}/blog`);
    await expect(heading).toHaveText(HEADING);
    expect(await blogVersion(page, site.url)).toEqual({ version: 'as-built', remoteEntry: 'ok', serverEntry: 'ok', pointer: 'as-built', since: expect.any(String), errors: expect.objectContaining({ failing: false }) });
    errors.expectClean();
  });
});
