import { rename, writeFile } from 'node:fs/promises';
import { checkStatsNow, setStatCheckEvery } from '../../../lib/stat-shared';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createLogger } from '../../../lib/logger';
import { MANIFESTS, blogServerModule, createSiteFixture, type SiteFixture } from '../../../test-support/site-fixture';
import { currentShell, importRelease } from '../release-format';
import { createRemoteRegistry, type ReleaseImporter } from '../remote-registry';
import { newSigningKey, parseTrustedKeys, signRelease, trustedKeyEntry } from '../release-signature';

/*
 * The registry is the one owner of what is served: which release of each remote, with its imported server module.
 * These tests drive it directly; where timing matters, a server module loads only when the test says so.
 */

/** A promise the test resolves when it chooses. */
function deferred() {
  let open!: () => void;
  const promise = new Promise<void>((resolve) => (open = resolve));
  return { promise, open };
}

describe('the remote registry', () => {
  let site: SiteFixture;

  /** A release of the blog, as `npm run deploy` leaves it. */
  async function release(version: string, options: { serverModule?: string | null; builtWith?: unknown } = {}) {
    const dir = `mfe-blog/releases/${version}`;
    const { server, ...manifest } = { ...MANIFESTS.blog, version, ...(options.builtWith ? { builtWith: options.builtWith } : {}) };
    await site.writeFile(`${dir}/mfe-manifest.json`, JSON.stringify(options.serverModule === null ? manifest : { ...manifest, server }));
    await site.writeFile(`${dir}/assets/remoteEntry.js`, `export const version = ${JSON.stringify(version)};`);
    if (options.serverModule !== null) await site.writeFile(`${dir}/server/routes.js`, options.serverModule ?? blogServerModule(` | ${version}`));
  }

  /** Moves the pointer as the deploy does: history first, then a rename over `current`. */
  async function point(version: string, stack: string[]) {
    await site.writeFile('mfe-blog/history.json', JSON.stringify({ stack, log: [] }));
    const temp = path.join(site.root, 'mfe-blog', `current.tmp-${version}`);
    await writeFile(temp, `${version}\n`);
    await rename(temp, path.join(site.root, 'mfe-blog', 'current'));
    await checkStatsNow();
  }

  beforeEach(async () => {
    site = await createSiteFixture();
  });
  afterEach(async () => {
    await site.cleanup();
  });

  it("loads a release's server module with the shell's shared packages, and a fresh copy of its code per load", async () => {
    await release('1.0.0', {
      serverModule: "import * as React from 'react';\nexport const routes = [{ path: '/blog', head: () => ({ path: '/blog', title: React.marker, description: 'x' }) }];",
    });
    await point('1.0.0', ['1.0.0']);
    const shared = { react: { marker: "the shell's React" } };
    const registry = createRemoteRegistry({ siteRoot: site.root, remoteUrls: {}, shared: async () => shared });
    const module = (await registry.snapshot()).served?.blog?.module;
    expect((module?.routes[0]?.head?.({}, undefined) as { title: string }).title).toBe("the shell's React");

    // Another registry (a restart) loads its own copy of the code: nothing is kept in a process-wide module cache.
    const again = createRemoteRegistry({ siteRoot: site.root, remoteUrls: {}, shared: async () => shared });
    expect((await again.snapshot()).served?.blog?.module).not.toBe(module);
  });

  it('lets the newer of two resolutions land last, however long the older one takes', async () => {
    const slow = deferred();
    const loading = deferred();
    await release('3.0.0');
    // No server module: resolved at once, while 3.0.0 still waits.
    await release('4.0.0', { serverModule: null });
    await point('3.0.0', ['3.0.0']);
    const switches: string[] = [];
    const logger = createLogger({
      level: 'info',
      destination: { write: (line: string) => void (/^mfe-blog serves /.test(JSON.parse(line).msg) && switches.push(JSON.parse(line).version)) },
    });
    // 3.0.0's server module takes as long as the test says (a cold import on a busy machine).
    const importer: ReleaseImporter = async (dir, manifest, shared) => {
      if (manifest.version === '3.0.0') {
        loading.open();
        await slow.promise;
      }
      return importRelease(dir, manifest, shared);
    };
    const registry = createRemoteRegistry({ siteRoot: site.root, remoteUrls: {}, logger, importer });

    const older = registry.snapshot();
    await loading.promise;
    // While 3.0.0's server module is still importing, the pointer moves on to 4.0.0 (a quick deploy after a slow one).
    await point('4.0.0', ['3.0.0', '4.0.0']);
    const newer = registry.snapshot();
    // Give the newer resolution every chance to finish first (it would, were resolutions not taken in turn), then
    // let the older one's import end.
    await Promise.race([newer, new Promise((resolve) => setTimeout(resolve, 300))]);
    slow.open();
    await Promise.all([older, newer]);

    expect((await newer).served?.blog?.version).toBe('4.0.0');
    // The older resolution finished first and the newer one after it: 3.0.0 never came back over 4.0.0.
    expect(switches).toEqual(['3.0.0', '4.0.0']);
    const settled = await registry.snapshot();
    expect(settled.served?.blog).toMatchObject({ version: '4.0.0', serverEntry: 'none' });
    expect(settled.map.blog?.version).toBe('4.0.0');
  });

  it('does not serve a release built against shared packages the shell cannot provide (React 18 under a React 19 shell)', async () => {
    await site.writeFile(
      'shell/dist/shell-manifest.json',
      JSON.stringify({ name: 'shell', version: '1.0.0', builtWith: { shared: { react: '19.3.1', 'react-dom': '19.3.1', 'react-router-dom': '7.18.5' }, serverContract: 1 } }),
    );
    await release('5.0.0', { builtWith: { shared: { react: '19.3.1', 'react-dom': '19.3.1' }, serverContract: 1 } });
    await release('6.0.0', { builtWith: { shared: { react: '18.3.1', 'react-dom': '18.3.1' }, serverContract: 1 } });
    await point('6.0.0', ['5.0.0', '6.0.0']);
    const registry = createRemoteRegistry({ siteRoot: site.root, remoteUrls: {} });

    const served = (await registry.snapshot()).served?.blog;
    expect(served).toMatchObject({ version: '5.0.0', rejected: { version: '6.0.0' } });
    expect(served?.rejected?.reason).toContain('it was built against react 18.3.1 (needs ^18.3.1), the shell provides 19.3.1');

    // Another server contract is refused the same way.
    await release('7.0.0', { builtWith: { shared: { react: '19.3.1' }, serverContract: 2 } });
    await point('7.0.0', ['5.0.0', '7.0.0']);
    expect((await registry.snapshot()).served?.blog?.rejected?.reason).toContain('built for server contract 2, the shell serves contract 1');
  });

  it('gives every reader of one snapshot the same release: directory, manifest, map and imported module', async () => {
    await release('8.0.0');
    await point('8.0.0', ['8.0.0']);
    const registry = createRemoteRegistry({ siteRoot: site.root, remoteUrls: {} });
    const snapshot = await registry.snapshot();
    const blog = snapshot.served?.blog;
    expect(blog?.dir).toBe(path.join(site.root, 'mfe-blog', 'releases', '8.0.0'));
    expect(snapshot.manifests.find((m) => m.name === 'blog')?.version).toBe('8.0.0');
    expect(snapshot.map.blog?.version).toBe('8.0.0');
    expect((blog?.module?.routes.find((r) => r.path === '/blog/:slug')?.head?.({ slug: 'x' }, { title: 'T', metaDescription: 'D', slug: 'x' }) as { title: string }).title).toBe('T | 8.0.0');
    expect(Object.isFrozen(snapshot)).toBe(true);
    expect(typeof blog?.since).toBe('string');
  });

  it('with trusted keys, runs only releases a key trusted for the remote signed: a stored row with the right files but no valid signature keeps the last good', async () => {
    const blogTeam = newSigningKey();
    const shellTeam = newSigningKey();
    const trustedKeys = parseTrustedKeys(`${trustedKeyEntry(['blog'], blogTeam.publicKey)},${trustedKeyEntry(['shell'], shellTeam.publicKey)}`);
    const dir = (version: string) => path.join(site.root, 'mfe-blog', 'releases', version);
    await release('1.0.0');
    await signRelease(dir('1.0.0'), 'blog', '1.0.0', blogTeam.privateKeyPem);
    await point('1.0.0', ['1.0.0']);
    const imported: string[] = [];
    const importer: ReleaseImporter = (d, manifest, shared) => (imported.push(path.basename(d)), importRelease(d, manifest, shared));
    const registry = createRemoteRegistry({ siteRoot: site.root, remoteUrls: {}, importer, trustedKeys });
    expect((await registry.snapshot()).served?.blog).toMatchObject({ version: '1.0.0', serverEntry: 'ok' });

    // Written as the database writer would: a complete release, pointer moved, but not signed. Never imported.
    await release('2.0.0', { serverModule: blogServerModule(' | unsigned') });
    await point('2.0.0', ['1.0.0', '2.0.0']);
    const unsigned = (await registry.snapshot()).served?.blog;
    expect(unsigned).toMatchObject({ version: '1.0.0', rejected: { version: '2.0.0' } });
    expect(unsigned?.rejected?.reason).toBe('releases/2.0.0: not signed by a key trusted for blog: release-signature.json is missing: the release is not signed');
    // Its files answer nothing either: only signed folders serve static files.
    expect((await registry.staticDirs('blog')).previous).not.toContain(dir('2.0.0'));

    // Signed by the shell's key (trusted, but not for the blog), then changed after a valid signature: refused.
    await release('3.0.0');
    await signRelease(dir('3.0.0'), 'blog', '3.0.0', shellTeam.privateKeyPem);
    await point('3.0.0', ['1.0.0', '3.0.0']);
    expect((await registry.snapshot()).served?.blog?.rejected?.reason).toContain(`is trusted for shell, not for "blog"`);
    await release('4.0.0');
    await signRelease(dir('4.0.0'), 'blog', '4.0.0', blogTeam.privateKeyPem);
    await site.writeFile('mfe-blog/releases/4.0.0/server/routes.js', blogServerModule(' | changed after signing'));
    await point('4.0.0', ['1.0.0', '4.0.0']);
    expect((await registry.snapshot()).served?.blog?.rejected?.reason).toBe(
      'releases/4.0.0: not signed by a key trusted for blog: server/routes.js is not the file that was signed (its SHA-256 differs)',
    );
    expect((await registry.snapshot()).served?.blog?.version).toBe('1.0.0');
    // None of the refused releases' code was ever evaluated.
    expect([...new Set(imported)]).toEqual(['1.0.0']);

    // Signed by the blog's key: served.
    await release('5.0.0');
    await signRelease(dir('5.0.0'), 'blog', '5.0.0', blogTeam.privateKeyPem);
    await point('5.0.0', ['1.0.0', '5.0.0']);
    expect((await registry.snapshot()).served?.blog).toMatchObject({ version: '5.0.0', serverEntry: 'ok' });
    expect((await registry.snapshot()).served?.blog?.rejected).toBeUndefined();
  });

  it('with trusted keys, does not serve a build in place (dist) nobody signed', async () => {
    const trustedKeys = parseTrustedKeys(trustedKeyEntry(['blog'], newSigningKey().publicKey));
    await site.writeFile('mfe-blog/dist/mfe-manifest.json', JSON.stringify(MANIFESTS.blog));
    await site.writeFile('mfe-blog/dist/assets/remoteEntry.js', 'export {}');
    await site.writeFile('mfe-blog/dist/server/routes.js', blogServerModule(''));
    const open = createRemoteRegistry({ siteRoot: site.root, remoteUrls: {} });
    expect((await open.snapshot()).served?.blog?.layout).toBe('dist');
    const signedOnly = createRemoteRegistry({ siteRoot: site.root, remoteUrls: {}, trustedKeys });
    expect((await signedOnly.snapshot()).served?.blog).toBeUndefined();
    expect((await signedOnly.staticDirs('blog')).current).toBeNull();
  });

  it('knows what is served without the file system once warm, and sees a deploy by another process within about a second', async () => {
    await release('1.0.0');
    await release('2.0.0');
    await point('1.0.0', ['1.0.0']);
    const registry = createRemoteRegistry({ siteRoot: site.root, remoteUrls: {} });
    const warm = await registry.snapshot();
    expect(warm.served?.blog?.version).toBe('1.0.0');

    // The whole site folder moved away: a page that still needed a stat or a read would see nothing served. The
    // once-a-second check is held off meanwhile (it would rightly see the folder gone).
    const restore = setStatCheckEvery(3_600_000);
    const away = `${site.root}-away`;
    await rename(site.root, away);
    try {
      expect(await registry.snapshot()).toBe(warm);
      expect(await currentShell(site.root)).toEqual(await currentShell(site.root));
    } finally {
      await rename(away, site.root);
      restore();
    }

    // Another process moves the pointer (no call into this one): the once-a-second check sees it.
    const temp = path.join(site.root, 'mfe-blog', 'current.tmp-other');
    await writeFile(temp, '2.0.0\n');
    await rename(temp, path.join(site.root, 'mfe-blog', 'current'));
    const started = Date.now();
    await vi.waitFor(async () => expect((await registry.snapshot()).served?.blog?.version).toBe('2.0.0'), { timeout: 5000, interval: 50 });
    expect(Date.now() - started).toBeLessThan(3000);
  });
});
