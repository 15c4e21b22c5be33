import { rename, writeFile } from 'node:fs/promises';
import { checkStatsNow } from '../../../lib/stat-shared';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { MfeManifest } from '@site/contracts/manifest';
import { MANIFESTS, blogServerModule, createSiteFixture, type SiteFixture } from '../../../test-support/site-fixture';
import { resolvePage } from '../../render/resolve-page';
import type { RouteDataLoaders } from '../../render/route-data';
import { releasePolicy, useReleasePolicy } from '../release-policy';
import { createRemoteRegistry, type RemotesSnapshot } from '../remote-registry';

/*
 * Issue 51 at load: a release already in the store that declares another app's route, or carries more than the limits,
 * is never served (the registry keeps its last good release), and the server gives a path to its owner whatever the
 * remotes declare. The upload side: deploys/__tests__/release-gate-routes.test.ts.
 */

const loaders: RouteDataLoaders = { post: async () => undefined, 'analysis-report': async () => undefined, 'post-list': async () => ({ lists: [] }) };

describe('release routes and limits at load', () => {
  let site: SiteFixture;

  /** A blog release as `npm run deploy` leaves it, with whatever its manifest says. */
  async function release(version: string, manifest: Partial<MfeManifest> = {}) {
    const dir = `mfe-blog/releases/${version}`;
    await site.writeFile(`${dir}/mfe-manifest.json`, JSON.stringify({ ...MANIFESTS.blog, version, ...manifest }));
    await site.writeFile(`${dir}/assets/remoteEntry.js`, `export const version = ${JSON.stringify(version)};`);
    await site.writeFile(`${dir}/server/routes.js`, blogServerModule(` | ${version}`));
  }

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
    useReleasePolicy(releasePolicy());
    await site.cleanup();
  });

  const cases: Array<[string, Partial<MfeManifest>, RegExp]> = [
    ['declares the admin’s paths', { routes: ['/blog', '/blog/:slug', '/admin', '/admin/*'] }, /the route "\/admin" is outside blog's routes \(it belongs to admin\)/],
    ['has a page of the admin', { pages: [{ path: '/admin', title: 'Log in', description: 'Admin' }] }, /"\/admin" is outside blog's routes/],
    ['declares more routes than the limit', { routes: Array.from({ length: 201 }, (_, i) => `/blog/r${i}`) }, /declares 201 routes, over the limit of 200 \(RELEASE_MAX_ROUTES\)/],
    ['declares more pages than the limit', { pages: Array.from({ length: 201 }, (_, i) => ({ path: `/blog/p${i}`, title: 'T', description: 'D' })) }, /declares 201 pages, over the limit of 200 \(RELEASE_MAX_PAGES\)/],
    ['has a manifest over the byte limit', { pages: [{ path: '/blog', title: 'T', description: 'x'.repeat(300 * 1024) }] }, /mfe-manifest.json is 300 KB, over the limit of 256 KB \(RELEASE_MAX_MANIFEST_KB\)/],
  ];
  for (const [what, manifest, reason] of cases) {
    it(`does not serve a stored release that ${what}, and keeps serving the last good one`, async () => {
      await release('1.0.0');
      await point('1.0.0', ['1.0.0']);
      const registry = createRemoteRegistry({ siteRoot: site.root, remoteUrls: {} });
      expect((await registry.snapshot()).served?.blog?.version).toBe('1.0.0');

      await release('2.0.0', manifest);
      await point('2.0.0', ['1.0.0', '2.0.0']);
      const snapshot = await registry.snapshot();
      expect(snapshot.served?.blog?.version).toBe('1.0.0');
      expect(snapshot.served?.blog?.rejected?.version).toBe('2.0.0');
      expect(snapshot.served?.blog?.rejected?.reason).toMatch(reason);
      expect(snapshot.map.blog?.routes).toEqual(MANIFESTS.blog.routes);
      expect(resolvePage(snapshot, '/admin', new URLSearchParams(), loaders).owner?.manifest.name).toBe('admin');
    });
  }

  it('tells the shell who owns what: each remote’s patterns are in /remotes.json', async () => {
    const snapshot = await createRemoteRegistry({ siteRoot: site.root, remoteUrls: {} }).snapshot();
    expect(snapshot.map.blog?.owns).toEqual(['/blog*']);
    expect(snapshot.map.admin?.owns).toEqual(['/admin*']);
  });

  it('serves a route the configuration gives the app (APP_ROUTES_BLOG), and refuses one it no longer owns', async () => {
    useReleasePolicy(releasePolicy({ blog: ['/blog*', '/journal/*'] }));
    await release('1.0.0', { routes: ['/blog', '/journal/:slug'] });
    await point('1.0.0', ['1.0.0']);
    const registry = createRemoteRegistry({ siteRoot: site.root, remoteUrls: {} });
    const snapshot = await registry.snapshot();
    expect(snapshot.served?.blog?.version).toBe('1.0.0');
    expect(resolvePage(snapshot, '/journal/first', new URLSearchParams(), loaders).owner?.manifest.name).toBe('blog');
    expect(snapshot.map.blog?.owns).toEqual(['/blog*', '/journal/*']);
  });
});

describe('the server gives a path to its owner (resolvePage)', () => {
  const admin = MANIFESTS.admin;
  // A blog manifest that declares the admin's paths, ahead of the admin in the list, as if it had been loaded.
  const hostile: MfeManifest = { ...MANIFESTS.blog, routes: [...MANIFESTS.blog.routes, '/admin', '/admin/*', '/:anything'] };
  const snapshotOf = (manifests: MfeManifest[]): RemotesSnapshot => Object.freeze({ manifests, map: {}, routes: manifests.flatMap((m) => m.routes), served: {} });

  it('renders /admin with the admin whatever the blog declares, and in any order', () => {
    for (const manifests of [[hostile, admin], [admin, hostile]]) {
      const snapshot = snapshotOf(manifests);
      expect(resolvePage(snapshot, '/admin', new URLSearchParams(), loaders).owner?.manifest.name).toBe('admin');
      expect(resolvePage(snapshot, '/ADMIN/posts/', new URLSearchParams(), loaders).owner?.manifest.name).toBe('admin');
      expect(resolvePage(snapshot, '/blog/post', new URLSearchParams(), loaders).owner?.manifest.name).toBe('blog');
    }
  });

  it('gives a path whose owner is absent or the server to no remote', () => {
    expect(resolvePage(snapshotOf([hostile]), '/admin', new URLSearchParams(), loaders).owner).toBeUndefined();
    expect(resolvePage(snapshotOf([hostile]), '/about', new URLSearchParams(), loaders).owner).toBeUndefined();
    expect(resolvePage(snapshotOf([hostile]), '/blog/rss.xml', new URLSearchParams(), loaders).owner).toBeUndefined();
  });
});
