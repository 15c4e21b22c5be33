import { readFile, symlink } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { deployTokenCreatedSchema } from '@site/contracts/deploys';
import { ADMIN_ENV, adminCookie } from '../../../test-support/admin-session';
import { describeNeedingBuild, REPO_ROOT, serverEntriesMissing } from '../../../test-support/built-site';
import { createSiteFixture, renderingBlogEntry, SHELL_INDEX, type SiteFixture } from '../../../test-support/site-fixture';
import { signDists } from '../../../test-support/signed-dists';
import { startTestServer, type TestServer } from '../../../test-support/test-server';
import { packReleaseTarball } from '../release-tarball';
import { newSigningKey, signFiles, trustedKeyEntry } from '../release-signature';

/*
 * The shell is a release like the remotes (issue 33): deployed over HTTP with a shell token while 50 visitors request
 * pages, no request fails (there is no moment without a shell), and every page is rendered, and kept, with one shell:
 * its document and its server entry from the same release.
 */

const CLIENTS = 50;

describeNeedingBuild('the shell deployed over HTTP while 50 clients request pages', { missing: serverEntriesMissing() }, () => {
  let site: SiteFixture;
  let server: TestServer;
  let shellToken: string;
  const shellFiles = new Map<string, Buffer>();

  /** A shell build: the built server entry and manifest, and a document that names its build. */
  const shellBuild = (label: string) => {
    const files = new Map(shellFiles);
    files.set('index.html', Buffer.from(SHELL_INDEX.replace('<meta charset="UTF-8" />', `<meta charset="UTF-8" />\n    <meta name="shell-build" content="${label}" />`)));
    return files;
  };

  beforeAll(async () => {
    site = await createSiteFixture();
    for (const file of ['server/entry.js', 'shell-manifest.json']) shellFiles.set(file, await readFile(path.join(REPO_ROOT, 'shell/dist', file)));
    shellFiles.set('assets/index-Ab12Cd34.js', Buffer.from('console.log("shell");'));
    // React for the shell's and the blog's server entries, above every folder they are served from.
    await symlink(path.join(REPO_ROOT, 'shell/node_modules'), path.join(site.root, 'node_modules'), 'dir');
    for (const [file, bytes] of shellBuild('A')) await site.writeFile(`shell/dist/${file}`, bytes);
    await site.writeFile('mfe-blog/dist/server/routes.js', renderingBlogEntry('blog'));
    const manifest = JSON.parse(await readFile(path.join(site.root, 'mfe-blog/dist/mfe-manifest.json'), 'utf8')) as Record<string, unknown>;
    await site.writeManifest('blog', { ...manifest, server: { routes: 'server/routes.js', entry: 'server/routes.js' } });
    // The first start imports shell/dist as the shell's first release.
    server = await startTestServer({ siteRoot: site.root, env: ADMIN_ENV });
    const cookie = await adminCookie(server);
    const created = await fetch(`${server.url}/api/admin/deploy-tokens`, {
      method: 'POST',
      headers: { cookie, origin: server.config.publicOrigin, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'shell CI', apps: ['shell'] }),
    });
    shellToken = deployTokenCreatedSchema.parse(await created.json()).token;
  }, 60_000);
  afterAll(async () => {
    await server?.close();
    await site?.cleanup();
  });

  it('no request fails, and each page has one shell: its document and server render of one release', async () => {
    const first = await fetch(`${server.url}/blog`, { headers: { accept: 'text/html' } });
    expect(first.status).toBe(200);
    expect(await first.text()).toContain('content="A"');
    expect((await readFile(path.join(site.root, 'shell/current'), 'utf8')).trim()).toMatch(/^1\.0\.0\+build\.[0-9a-f]{8}$/);

    const pages: Array<{ status: number; build: string[]; cache: string | null; ms: number }> = [];
    let deploying = true;
    const visitor = async () => {
      while (deploying || pages.length < CLIENTS * 4) {
        const started = performance.now();
        const res = await fetch(`${server.url}/blog`, { headers: { accept: 'text/html' } }).catch(() => null);
        const html = res ? await res.text() : '';
        pages.push({ status: res?.status ?? 0, build: [...html.matchAll(/name="shell-build" content="(\w+)"/g)].map((m) => m[1]!), cache: res?.headers.get('x-render-cache') ?? null, ms: performance.now() - started });
        if (!deploying && pages.length >= CLIENTS * 4) break;
      }
    };
    const clients = Array.from({ length: CLIENTS }, visitor);
    await new Promise((resolve) => setTimeout(resolve, 200));
    const deployed = await fetch(`${server.url}/api/releases/shell`, {
      method: 'POST',
      headers: { authorization: `Bearer ${shellToken}`, 'content-type': 'application/gzip' },
      body: await packReleaseTarball(shellBuild('B')),
    });
    const change = (await deployed.json()) as { version: string; checked: string[] };
    expect(deployed.status, JSON.stringify(change)).toBe(201);
    expect(change.checked).toContain('server/entry.js loads');
    await new Promise((resolve) => setTimeout(resolve, 300));
    deploying = false;
    await Promise.all(clients);

    const failed = pages.filter((p) => p.status !== 200);
    const mixed = pages.filter((p) => p.build.length !== 1);
    const ms = pages.map((p) => p.ms).sort((a, b) => a - b);
    const p99 = ms[Math.floor(ms.length * 0.99)]!;
    console.info(
      `shell deployed while ${CLIENTS} clients requested /blog: ${pages.length} pages, ${failed.length} errors, p99 ${p99.toFixed(0)} ms; ` +
        `shell A ${pages.filter((p) => p.build[0] === 'A').length}, B ${pages.filter((p) => p.build[0] === 'B').length}; kept (hit) ${pages.filter((p) => p.cache === 'hit').length}`,
    );
    expect(failed).toEqual([]);
    expect(mixed).toEqual([]);
    // After the switch, every page is the new shell's, rendered and kept under it.
    const after = await fetch(`${server.url}/blog`, { headers: { accept: 'text/html' } });
    expect(await after.text()).toContain('content="B"');
    expect((await readFile(path.join(site.root, 'shell/current'), 'utf8')).trim()).toBe(change.version);
  }, 60_000);

  it('with RELEASE_TRUSTED_KEYS, a shell release nobody trusted signed is never served, whatever its pointer says', async () => {
    const shellKey = newSigningKey();
    const marketingKey = newSigningKey();
    const signedSite = await createSiteFixture();
    try {
      await symlink(path.join(REPO_ROOT, 'shell/node_modules'), path.join(signedSite.root, 'node_modules'), 'dir');
      const signed = (label: string, version: string, key: string) => {
        const files = shellBuild(label);
        files.set('release-signature.json', signFiles(files, 'shell', version, key));
        return files;
      };
      // The shell team's release, deployed as it would be, then a folder written beside it as a database row would
      // arrive (release-sync copies it), signed by a key trusted for marketing only, and the pointer moved to it.
      const put = async (version: string, files: Map<string, Buffer>) => {
        for (const [file, bytes] of files) await signedSite.writeFile(`shell/releases/${version}/${file}`, bytes);
      };
      await put('2.0.0', signed('S', '2.0.0', shellKey.privateKeyPem));
      await signedSite.writeFile('shell/current', '2.0.0\n');
      // The remotes' builds are signed by the operator's key, trusted for them but not for the shell (the server starts
      // only when every app it serves is signed by a key trusted for it).
      const operator = newSigningKey();
      await signDists(signedSite.root, ['marketing', 'blog', 'admin'], operator.privateKeyPem);
      const keys = [trustedKeyEntry(['shell'], shellKey.publicKey), trustedKeyEntry(['marketing'], marketingKey.publicKey), trustedKeyEntry(['marketing', 'blog', 'admin'], operator.publicKey)].join(',');
      const guarded = await startTestServer({ siteRoot: signedSite.root, env: { ...ADMIN_ENV, RELEASE_TRUSTED_KEYS: keys } });
      try {
        const page = async () => (await (await fetch(`${guarded.url}/blog`, { headers: { accept: 'text/html' } })).text()).match(/name="shell-build" content="(\w+)"/)?.[1];
        expect(await page()).toBe('S');
        await put('6.6.6', signed('X', '6.6.6', marketingKey.privateKeyPem));
        await signedSite.writeFile('shell/current', '6.6.6\n');
        expect(await page()).toBe('S');
        const unsigned = shellBuild('U');
        await put('6.6.7', unsigned);
        await signedSite.writeFile('shell/current', '6.6.7\n');
        expect(await page()).toBe('S');
      } finally {
        await guarded.close();
      }
      // Started again with the pointer still at the unsigned release and the signed one below it in the history: the
      // server starts (the shell has a trusted release) and serves that one.
      await signedSite.writeFile('shell/history.json', JSON.stringify({ stack: ['2.0.0', '6.6.6', '6.6.7'], log: [] }));
      const restarted = await startTestServer({ siteRoot: signedSite.root, env: { ...ADMIN_ENV, RELEASE_TRUSTED_KEYS: keys } });
      try {
        const html = await (await fetch(`${restarted.url}/blog`, { headers: { accept: 'text/html' } })).text();
        expect(html.match(/name="shell-build" content="(\w+)"/)?.[1]).toBe('S');
      } finally {
        await restarted.close();
      }
    } finally {
      await signedSite.cleanup();
    }
  }, 60_000);
});
