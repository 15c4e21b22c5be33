import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cpSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { expect, test, type Page } from '../support/test';
import { E2E_ADMIN_PASSWORD, E2E_PORT, REPO_ROOT } from '../support/env';
import { watchPageErrors } from '../support/page-errors';
import { startSiteServer, type RunningServer } from '../support/servers';

const REMOTES = ['marketing', 'analysis', 'blog', 'admin'];
const HEADING = 'AI Automation Blog';
const NEW_HEADING = 'AI Automation Blog, new edition';
const HASHED = /-[\w-]{8}\.(?:js|css)$/;

/** `npm run deploy -- …` / `npm run rollback -- …` on the test's own SITE_ROOT: what an operator runs. */
function deployScript(siteRoot: string, ...args: string[]): string {
  return execFileSync(process.execPath, [path.join(REPO_ROOT, 'scripts/deploy-remote.mjs'), ...args], {
    env: { ...process.env, SITE_ROOT: siteRoot },
    encoding: 'utf8',
  });
}

/**
 * A rebuilt blog whose page heading reads differently, made from the built dist the way a build would write it:
 * the heading changed in the browser and server chunks, every chunk whose bytes changed renamed to a new content hash
 * (and the files naming it updated, up to remoteEntry.js), and brotli/gzip copies written again.
 */
function blogWithNewHeading(dist: string, out: string): void {
  cpSync(dist, out, { recursive: true });
  const files = () =>
    readdirSync(out, { recursive: true, encoding: 'utf8' }).filter((f) => /\.(?:js|json|html|css)$/.test(f));
  const changed = new Set<string>();
  for (const file of files()) {
    const text = readFileSync(path.join(out, file), 'utf8');
    const next = text.replace(new RegExp(`title:\\s*"${HEADING}"`, 'g'), `title: "${NEW_HEADING}"`);
    if (next !== text) {
      writeFileSync(path.join(out, file), next);
      changed.add(file);
    }
  }
  expect(changed.size, 'the heading is in the built chunks').toBeGreaterThan(0);
  // New content, new name: rename each changed hashed chunk and rewrite whoever names it, until nothing moves.
  const renamed = new Set<string>();
  for (let pending = [...changed].filter((f) => HASHED.test(f)); pending.length > 0; ) {
    const next: string[] = [];
    for (const file of pending) {
      if (renamed.has(file)) continue;
      const hash = createHash('sha256').update(readFileSync(path.join(out, file))).digest('base64url').slice(0, 7);
      const renamedTo = file.replace(/-[\w-]{8}\.(js|css)$/, `-N${hash}.$1`);
      renameSync(path.join(out, file), path.join(out, renamedTo));
      for (const suffix of ['.br', '.gz']) rmSync(path.join(out, file + suffix), { force: true });
      renamed.add(renamedTo);
      changed.delete(file);
      changed.add(renamedTo);
      const [oldName, newName] = [path.basename(file), path.basename(renamedTo)];
      for (const other of files()) {
        const text = readFileSync(path.join(out, other), 'utf8');
        if (!text.includes(oldName)) continue;
        writeFileSync(path.join(out, other), text.split(oldName).join(newName));
        changed.add(other);
        if (HASHED.test(other) && !renamed.has(other)) next.push(other);
      }
    }
    pending = next;
  }
  for (const file of changed) {
    const bytes = readFileSync(path.join(out, file));
    writeFileSync(path.join(out, `${file}.br`), zlib.brotliCompressSync(bytes));
    writeFileSync(path.join(out, `${file}.gz`), zlib.gzipSync(bytes));
  }
}

/** What the admin reads of the blog in /api/health (anyone else sees its version only). */
async function blogVersion(page: Page, url: string): Promise<unknown> {
  const login = await page.request.post(`${url}/api/admin/login`, { headers: { origin: url }, data: { password: E2E_ADMIN_PASSWORD } });
  expect(login.status(), await login.text()).toBe(200);
  const health = await (await page.request.get(`${url}/api/health`)).json();
  return health.remotes.blog;
}

test.describe('deploying one remote as a release, and rolling it back', () => {
  const SITE_PORT = E2E_PORT + 61;
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
    site = await startSiteServer(SITE_PORT, { SITE_ROOT: siteRoot, PUBLIC_ORIGIN: `http://127.0.0.1:${SITE_PORT}`, ADMIN_PASSWORD: E2E_ADMIN_PASSWORD });
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
    expect(await blogVersion(page, site.url)).toEqual({ version: 'as-built', remoteEntry: 'ok', serverEntry: 'ok', pointer: 'as-built', since: expect.any(String) });

    const deployed = deployScript(siteRoot, 'deploy', 'blog', '--from', path.join(siteRoot, 'builds/blog-new-heading'), '--version', 'new-heading');
    expect(deployed).toContain('current: as-built -> new-heading');
    await page.goto(`${site.url}/blog`);
    await expect(heading).toHaveText(NEW_HEADING);
    // The server's HTML (no JavaScript) says so too once the blog renders on the server.
    const serverHeading = /<h1[^>]*>([^<]*)<\/h1>/.exec(await (await page.request.get(`${site.url}/blog`)).text())?.[1];
    if (serverHeading !== undefined) expect(serverHeading).toBe(NEW_HEADING);
    expect(await blogVersion(page, site.url)).toEqual({ version: 'new-heading', remoteEntry: 'ok', serverEntry: 'ok', pointer: 'new-heading', since: expect.any(String) });

    // A pointer naming a release that is not there (a deploy that died mid-way) changes nothing a visitor sees.
    writeFileSync(path.join(siteRoot, 'mfe-blog/current'), 'half-copied\n');
    await page.goto(`${site.url}/blog`);
    await expect(heading).toHaveText(NEW_HEADING);
    expect(await blogVersion(page, site.url)).toMatchObject({ version: 'new-heading', lastKnownGood: 'new-heading', failedRelease: { version: 'half-copied' } });
    writeFileSync(path.join(siteRoot, 'mfe-blog/current'), 'new-heading\n');

    const rolledBack = deployScript(siteRoot, 'rollback', 'blog');
    expect(rolledBack).toContain('current: new-heading -> as-built');
    await page.goto(`${site.url}/blog`);
    await expect(heading).toHaveText(HEADING);
    expect(await blogVersion(page, site.url)).toEqual({ version: 'as-built', remoteEntry: 'ok', serverEntry: 'ok', pointer: 'as-built', since: expect.any(String) });
    errors.expectClean();
  });
});
