import { spawn, spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test } from '../support/test';
import { REPO_ROOT } from '../support/env';
import { startRemoteHost, startSiteServer, type RunningServer } from '../support/servers';

test.describe('a remote that is down', () => {
  const SITE_PORT = 3191;
  const BLOG_HOST_PORT = 3192;
  let site: RunningServer;
  let blogHost: RunningServer | undefined;

  test.beforeAll(async () => {
    // The blog is "deployed" to another host that is not running yet.
    site = await startSiteServer(SITE_PORT, { REMOTE_BLOG_URL: `http://127.0.0.1:${BLOG_HOST_PORT}/mfe/blog/assets/remoteEntry.js` });
  });
  test.afterAll(async () => {
    await blogHost?.stop();
    await site.stop();
  });

  test('shows the unavailable message in its own area; the rest works; Retry loads it once back', async ({ page }) => {
    const started = Date.now();
    // The blog's area never hydrates here (its code is unreachable): do not wait for it.
    await page.goto(`${site.url}/blog`, { waitUntil: 'commit' });
    await expect(page.getByRole('heading', { name: 'This section is temporarily unavailable' })).toBeVisible({ timeout: 6000 });
    expect(Date.now() - started).toBeLessThan(6000);
    // Header and footer still work around it.
    await expect(page.getByRole('navigation', { name: 'Main' })).toBeVisible();
    await expect(page.getByRole('contentinfo')).toBeVisible();

    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Home' }).click();
    await expect(page.locator('[data-mfe="marketing"]')).toBeVisible();
    await page.goto(`${site.url}/roi-calculator`);
    await expect(page.locator('[data-mfe="marketing"]')).toBeVisible();

    await page.goto(`${site.url}/blog`);
    await expect(page.getByRole('button', { name: 'Retry' })).toBeVisible({ timeout: 6000 });
    blogHost = await startRemoteHost(BLOG_HOST_PORT, 'blog', path.join(REPO_ROOT, 'mfe-blog/dist'));
    await page.getByRole('button', { name: 'Retry' }).click();
    await expect(page.locator('[data-mfe="blog"]')).toBeVisible();
    await expect(page.getByRole('heading', { name: 'This section is temporarily unavailable' })).toBeHidden();
  });
});

test.describe('redeploying one remote', () => {
  const SITE_PORT = 3193;
  let site: RunningServer;
  let siteRoot: string;

  test.beforeAll(async () => {
    // A deployment of its own, so the suite's server is never touched.
    siteRoot = mkdtempSync(path.join(os.tmpdir(), 'site-root-'));
    for (const dir of ['shell', 'mfe-marketing', 'mfe-analysis', 'mfe-blog', 'mfe-admin']) {
      cpSync(path.join(REPO_ROOT, dir, 'dist'), path.join(siteRoot, dir, 'dist'), { recursive: true });
    }
    site = await startSiteServer(SITE_PORT, { SITE_ROOT: siteRoot });
  });
  test.afterAll(async () => {
    await site.stop();
    rmSync(siteRoot, { recursive: true, force: true });
  });

  test('copying a new build over the served one shows it on the next load, with no restart', async ({ page }) => {
    test.setTimeout(120_000);
    await page.goto(`${site.url}/blog`);
    const blog = page.locator('[data-mfe="blog"]');
    await expect(blog).toHaveAttribute('data-mfe-version', '1.0.0');

    const outDir = path.join(siteRoot, 'next-blog');
    const build = spawnSync(path.join(REPO_ROOT, 'mfe-blog/node_modules/.bin/vite'), ['build', '--outDir', outDir, '--emptyOutDir', '--logLevel', 'error'], {
      cwd: path.join(REPO_ROOT, 'mfe-blog'),
      env: { ...process.env, MFE_VERSION: '1.0.1-redeploy' },
      encoding: 'utf8',
    });
    expect(build.status, build.stderr).toBe(0);
    rmSync(path.join(siteRoot, 'mfe-blog/dist'), { recursive: true });
    cpSync(outDir, path.join(siteRoot, 'mfe-blog/dist'), { recursive: true });

    await page.reload();
    await expect(page.locator('[data-mfe="blog"]')).toHaveAttribute('data-mfe-version', '1.0.1-redeploy');
    const health = await (await page.request.get(`${site.url}/api/health`)).json();
    expect(health.remotes.blog.version).toBe('1.0.1-redeploy');
    // The other remotes are untouched.
    await page.goto(`${site.url}/`);
    await expect(page.locator('[data-mfe="marketing"]')).toHaveAttribute('data-mfe-version', '1.0.0');
  });
});

test.describe('each remote alone', () => {
  const REMOTES = [
    { name: 'marketing', port: 4174 },
    { name: 'analysis', port: 4175 },
    { name: 'blog', port: 4176 },
    { name: 'admin', port: 4177 },
  ];
  for (const { name, port } of REMOTES) {
    test(`mfe-${name}'s standalone preview renders its home route`, async ({ page }) => {
      const dir = path.join(REPO_ROOT, `mfe-${name}`);
      const child = spawn(path.join(dir, 'node_modules/.bin/vite'), ['preview', '--port', String(port), '--strictPort', '--host', '127.0.0.1'], {
        cwd: dir,
        stdio: 'ignore',
      });
      try {
        await expect
          .poll(async () => (await fetch(`http://127.0.0.1:${port}/mfe/${name}/`).catch(() => null))?.status ?? 0, { timeout: 15_000 })
          .toBe(200);
        await page.goto(`http://127.0.0.1:${port}/mfe/${name}/`);
        await expect(page.getByText(`Standalone preview of mfe-${name}`)).toBeVisible();
        await expect(page.locator(`[data-mfe="${name}"]`)).toBeVisible();
        await expect(page.getByRole('heading', { level: 1 }).first()).toBeVisible();
        await expect(page.getByRole('heading', { name: 'Oops! Page not found' })).toHaveCount(0);
      } finally {
        child.kill('SIGTERM');
      }
    });
  }
});
