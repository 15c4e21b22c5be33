import { spawn } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test } from '../support/test';
import { REPO_ROOT } from '../support/env';
import { releaseFrom } from '../support/releases';
import { freePort, startRemoteHost, startSiteServer, type RunningServer } from '../support/servers';

test.describe('a remote that is down', () => {
  let blogHostPort: number;
  let site: RunningServer;
  let blogHost: RunningServer | undefined;

  test.beforeAll(async () => {
    // The blog is "deployed" to another host that is not running yet: an address nothing listens on until the test
    // starts the host there.
    blogHostPort = await freePort();
    site = await startSiteServer({ REMOTE_BLOG_URL: `http://127.0.0.1:${blogHostPort}/mfe/blog/assets/remoteEntry.js` });
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
    blogHost = await startRemoteHost('blog', path.join(REPO_ROOT, 'mfe-blog/dist'), blogHostPort);
    await page.getByRole('button', { name: 'Retry' }).click();
    await expect(page.locator('[data-mfe="blog"]')).toBeVisible();
    await expect(page.getByRole('heading', { name: 'This section is temporarily unavailable' })).toBeHidden();
  });
});

test.describe('redeploying one remote', () => {
  let site: RunningServer;
  let siteRoot: string;

  test.beforeAll(async () => {
    // A deployment of its own, so the suite's server is never touched.
    siteRoot = mkdtempSync(path.join(os.tmpdir(), 'site-root-'));
    for (const dir of ['shell', 'mfe-marketing', 'mfe-analysis', 'mfe-blog', 'mfe-admin']) {
      cpSync(path.join(REPO_ROOT, dir, 'dist'), path.join(siteRoot, dir, 'dist'), { recursive: true });
    }
    // The dist served in place (RELEASE_IMPORT_BUILDS=off: a remote with no release yet), as a developer's machine may.
    site = await startSiteServer({ SITE_ROOT: siteRoot, RELEASE_IMPORT_BUILDS: 'off' });
  });
  test.afterAll(async () => {
    await site.stop();
    rmSync(siteRoot, { recursive: true, force: true });
  });

  test('copying a new build over the served one shows it within a second, with no restart', async ({ page }) => {
    await page.goto(`${site.url}/blog`);
    const blog = page.locator('[data-mfe="blog"]');
    await expect(blog).toHaveAttribute('data-mfe-version', '1.0.0');

    // The blog as a build with MFE_VERSION=1.0.1-redeploy writes it (the version in its manifest, its browser and
    // server chunks, new chunk hashes), made from the built dist: this test is about the copy, not the build.
    const outDir = path.join(siteRoot, 'next-blog');
    const dist = path.join(siteRoot, 'mfe-blog/dist');
    const built = (JSON.parse(readFileSync(path.join(dist, 'mfe-manifest.json'), 'utf8')) as { version: string }).version;
    const edited = releaseFrom(dist, outDir, (file, text) =>
      file === 'mfe-manifest.json'
        ? `${JSON.stringify({ ...(JSON.parse(text) as object), version: '1.0.1-redeploy' }, null, 2)}\n`
        : text.split(`name:"blog",version:"${built}"`).join('name:"blog",version:"1.0.1-redeploy"').split(`name: "blog", version: "${built}"`).join('name: "blog", version: "1.0.1-redeploy"'),
    );
    expect(edited, 'the version is in the manifest, the browser chunk and the server entry').toEqual(
      expect.arrayContaining(['mfe-manifest.json', 'server/entry.js', expect.stringMatching(/^assets\/__federation_expose_App-/)]),
    );
    rmSync(path.join(siteRoot, 'mfe-blog/dist'), { recursive: true });
    cpSync(outDir, path.join(siteRoot, 'mfe-blog/dist'), { recursive: true });

    // Another process's copy: the server sees it at its once-a-second look at the folder.
    await expect.poll(async () => (await (await page.request.get(`${site.url}/api/health`)).json()).remotes?.blog?.version, { timeout: 5000 }).toBe('1.0.1-redeploy');
    await page.reload();
    await expect(page.locator('[data-mfe="blog"]')).toHaveAttribute('data-mfe-version', '1.0.1-redeploy');
    const health = await (await page.request.get(`${site.url}/api/health`)).json();
    expect(health.remotes.blog.version).toBe('1.0.1-redeploy');
    // The other remotes are untouched.
    await page.goto(`${site.url}/`);
    await expect(page.locator('[data-mfe="marketing"]')).toHaveAttribute('data-mfe-version', '1.0.0');
  });
});

/**
 * Starts `vite preview` of a remote on a port the OS picks (`--port 0`) and resolves with the address it prints.
 */
async function startPreview(dir: string): Promise<{ url: string; stop: () => void }> {
  const child = spawn(path.join(dir, 'node_modules/.bin/vite'), ['preview', '--port', '0', '--strictPort', '--host', '127.0.0.1'], {
    cwd: dir,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const stop = () => void child.kill('SIGTERM');
  let output = '';
  try {
    const url = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`vite preview printed no address within 15 s:\n${output}`)), 15_000);
      const read = (chunk: Buffer) => {
        // eslint-disable-next-line no-control-regex -- colour codes, should the output be coloured
        output += chunk.toString().replace(/\x1b\[[\d;]*m/g, '');
        const local = /Local:\s+(http:\/\/127\.0\.0\.1:\d+\/)/.exec(output);
        if (local) {
          clearTimeout(timer);
          resolve(local[1]);
        }
      };
      child.stdout.on('data', read);
      child.stderr.on('data', read);
      child.once('exit', (code) => {
        clearTimeout(timer);
        reject(new Error(`vite preview exited (${code}):\n${output}`));
      });
    });
    return { url, stop };
  } catch (error) {
    stop();
    throw error;
  }
}

test.describe('each remote alone', () => {
  for (const name of ['marketing', 'analysis', 'blog', 'admin']) {
    test(`mfe-${name}'s standalone preview renders its home route`, async ({ page }) => {
      const preview = await startPreview(path.join(REPO_ROOT, `mfe-${name}`));
      try {
        const home = new URL(`mfe/${name}/`, preview.url).href;
        await expect.poll(async () => (await fetch(home).catch(() => null))?.status ?? 0, { timeout: 15_000 }).toBe(200);
        await page.goto(home);
        await expect(page.getByText(`Standalone preview of mfe-${name}`)).toBeVisible();
        await expect(page.locator(`[data-mfe="${name}"]`)).toBeVisible();
        await expect(page.getByRole('heading', { level: 1 }).first()).toBeVisible();
        await expect(page.getByRole('heading', { name: 'Oops! Page not found' })).toHaveCount(0);
      } finally {
        preview.stop();
      }
    });
  }
});
