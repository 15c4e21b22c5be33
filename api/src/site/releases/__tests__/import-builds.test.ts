import { checkStatsNow } from '../../../lib/stat-shared';
import { execFile } from 'node:child_process';
import { cp, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { deployLogPageSchema } from '@site/contracts/deploys';
import { ADMIN_ENV, adminCookie } from '../../../test-support/admin-session';
import { createSiteFixture, MANIFESTS, type SiteFixture } from '../../../test-support/site-fixture';
import { startTestServer, type TestServer } from '../../../test-support/test-server';

/*
 * A build never changes what is served (issue 33). On a site's first start each built remote is imported as its first
 * release; rebuilding it in place then changes nothing, across restarts, until a deploy; and the first deploy rolls back
 * to exactly what was served before it. `npm start` (RELEASE_IMPORT_BUILDS=changed) serves what it just built.
 */

const DEPLOY_SCRIPT = path.resolve(import.meta.dirname, '../../../../../scripts/deploy-remote.mjs');
const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function start(site: SiteFixture, env: Record<string, string> = {}): Promise<TestServer> {
  const server = await startTestServer({ siteRoot: site.root, env: { ...ADMIN_ENV, ...env } });
  cleanups.push(() => server.close());
  return server;
}

/** What a visitor's browser is given of the blog: its version and its remote entry's bytes. */
async function blog(server: TestServer) {
  const remotes = (await (await fetch(`${server.url}/remotes.json`)).json()) as { blog?: { version: string } };
  const entry = await (await fetch(`${server.url}/mfe/blog/assets/remoteEntry.js`)).text();
  return { version: remotes.blog?.version, entry };
}

/** `npm run build` of the blog, in place: a new manifest version and a new remote entry in mfe-blog/dist. */
async function rebuild(site: SiteFixture, label: string) {
  await site.writeManifest('blog', { ...MANIFESTS.blog, version: '0.9.1' });
  await site.writeFile('mfe-blog/dist/assets/remoteEntry.js', `export const name = ${JSON.stringify(label)};`);
}

async function deployLog(server: TestServer) {
  const cookie = await adminCookie(server);
  return deployLogPageSchema.parse(await (await fetch(`${server.url}/api/admin/deploys?app=blog`, { headers: { cookie } })).json()).entries;
}

function script(site: SiteFixture, server: TestServer | { dataDir: string }, ...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
    const env = { ...process.env, SITE_ROOT: site.root, DATA_DIR: server.dataDir, INIT_CWD: site.root, DATABASE_URL: '', RELEASE_TRUSTED_KEYS: '' };
    execFile(process.execPath, [DEPLOY_SCRIPT, ...args], { env }, (error, stdout, stderr) => resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, stdout, stderr }));
  }).then(async (result) => {
    // The server sees another process's deploy at its next once-a-second check: run here at once.
    await checkStatsNow();
    return result;
  });
}

describe('a build never changes what is served', () => {
  it('imports the built remotes on the first start; a rebuild in place and a restart change nothing; the first deploy rolls back to them', async () => {
    const site = await createSiteFixture();
    cleanups.push(() => site.cleanup());
    let server = await start(site);
    const first = await blog(server);
    expect(first.version).toMatch(/^0\.9\.0\+build\.[0-9a-f]{8}$/);
    const original = await readFile(path.join(site.root, 'mfe-blog/dist/assets/remoteEntry.js'), 'utf8');
    expect(first.entry).toBe(original);
    expect((await readFile(path.join(site.root, 'mfe-blog/current'), 'utf8')).trim()).toBe(first.version);
    const imported = await deployLog(server);
    expect(imported.map((e) => [e.action, e.version, e.result, e.by])).toEqual([['deploy', first.version, 'ok', 'first start (the built output)']]);

    // Edited and built in place: nothing served changes, not even after a restart.
    await rebuild(site, 'the edited blog');
    expect(await blog(server)).toEqual(first);
    await server.close();
    cleanups.pop();
    server = await start(site);
    expect(await blog(server)).toEqual(first);

    // A deploy is what changes it; its rollback target is exactly what was served before.
    const deployed = await script(site, server, 'deploy', 'blog', '--from', path.join(site.root, 'mfe-blog/dist'));
    expect(deployed.code, deployed.stderr).toBe(0);
    expect(deployed.stdout).toContain(`current: ${first.version} -> 0.9.1`);
    expect(await blog(server)).toEqual({ version: '0.9.1', entry: 'export const name = "the edited blog";' });
    const rolledBack = await script(site, server, 'rollback', 'blog');
    expect(rolledBack.code, rolledBack.stderr).toBe(0);
    expect(await blog(server)).toEqual(first);

    // The owner's deploy log (of this server's database) has the deploy and the rollback; the restart imported nothing.
    expect((await deployLog(server)).map((e) => [e.action, e.version, e.result])).toEqual([
      ['rollback', first.version, 'ok'],
      ['deploy', '0.9.1', 'ok'],
    ]);
  }, 60_000);

  it('a release deployed into a fresh site folder before the first start is served: neither the first start nor npm start imports the build over it', async () => {
    // The sequence: `npm run deploy -- blog --from <dir>` into a site that never ran, then the server's first
    // start on a fresh database, then `npm start` (which imports changed builds). The folder's release is what is served.
    const site = await createSiteFixture();
    cleanups.push(() => site.cleanup());
    const elsewhere = await mkdtemp(path.join(tmpdir(), 'import-builds-'));
    cleanups.push(() => rm(elsewhere, { recursive: true, force: true }));
    const from = path.join(elsewhere, 'build');
    await cp(path.join(site.root, 'mfe-blog/dist'), from, { recursive: true });
    await writeFile(path.join(from, 'mfe-manifest.json'), JSON.stringify({ ...MANIFESTS.blog, version: '9.0.0' }));
    await writeFile(path.join(from, 'assets/remoteEntry.js'), 'export const name = "the deployed blog";');
    const deployed = await script(site, { dataDir: path.join(elsewhere, 'data') }, 'deploy', 'blog', '--from', from);
    expect(deployed.code, deployed.stderr).toBe(0);
    expect(deployed.stdout).toMatch(/current: .* -> 9\.0\.0\n/);
    const expected = { version: '9.0.0', entry: 'export const name = "the deployed blog";' };

    let server = await start(site);
    expect(await blog(server)).toEqual(expected);
    expect(await deployLog(server)).toEqual([]);
    await server.close();
    cleanups.pop();
    server = await start(site, { RELEASE_IMPORT_BUILDS: 'changed' });
    expect(await blog(server)).toEqual(expected);
    expect(await deployLog(server)).toEqual([]);
    expect((await readFile(path.join(site.root, 'mfe-blog/current'), 'utf8')).trim()).toBe('9.0.0');
    const releases = await readdir(path.join(site.root, 'mfe-blog/releases'));
    expect(releases.filter((name) => name.includes('+build.'))).toEqual([]);
  }, 60_000);

  it('npm start (RELEASE_IMPORT_BUILDS=changed) serves what it built, as a new release above the one before', async () => {
    const site = await createSiteFixture();
    cleanups.push(() => site.cleanup());
    let server = await start(site, { RELEASE_IMPORT_BUILDS: 'changed' });
    const first = await blog(server);
    await rebuild(site, 'the edited blog');
    await server.close();
    cleanups.pop();
    server = await start(site, { RELEASE_IMPORT_BUILDS: 'changed' });
    const second = await blog(server);
    expect(second.version).toMatch(/^0\.9\.1\+build\.[0-9a-f]{8}$/);
    expect(second.entry).toBe('export const name = "the edited blog";');
    // The same build again: nothing new.
    await server.close();
    cleanups.pop();
    server = await start(site, { RELEASE_IMPORT_BUILDS: 'changed' });
    expect(await blog(server)).toEqual(second);
    const rolledBack = await script(site, server, 'rollback', 'blog');
    expect(rolledBack.code, rolledBack.stderr).toBe(0);
    expect(await blog(server)).toEqual(first);
  }, 60_000);

  it('a history.json written with a log (a site upgraded in place) is read once for its facts, and written again without it', async () => {
    const site = await createSiteFixture();
    cleanups.push(() => site.cleanup());
    let server = await start(site, { RELEASE_IMPORT_BUILDS: 'changed' });
    const first = await blog(server);
    await server.close();
    cleanups.pop();
    // As the deployer wrote it before the deploy log was the only log.
    const at = new Date().toISOString();
    const old = { stack: [first.version], log: [{ at, action: 'import-build', version: first.version, previous: null, by: 'npm start (a new build)', from: 'mfe-blog/dist' }] };
    await writeFile(path.join(site.root, 'mfe-blog/history.json'), JSON.stringify(old));

    // Its log says the served release is an imported build: npm start replaces it with the new build.
    await rebuild(site, 'the edited blog');
    server = await start(site, { RELEASE_IMPORT_BUILDS: 'changed' });
    const second = await blog(server);
    expect(second.version).toMatch(/^0\.9\.1\+build\.[0-9a-f]{8}$/);
    const history = JSON.parse(await readFile(path.join(site.root, 'mfe-blog/history.json'), 'utf8'));
    expect(history).toEqual({ stack: [first.version, second.version], builds: [first.version, second.version], servedBuild: second.version });

    // And a rollback at the bottom still says what the first release was.
    expect((await script(site, server, 'rollback', 'blog')).code).toBe(0);
    const bottom = await script(site, server, 'rollback', 'blog');
    expect(bottom.stderr).toContain(`${first.version} is mfe-blog/dist as built when the site first started`);
    expect(await blog(server)).toEqual(first);
  }, 60_000);
});
