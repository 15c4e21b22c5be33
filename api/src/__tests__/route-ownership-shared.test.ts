import pg from 'pg';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { deployTokenCreatedSchema } from '@site/contracts/deploys';
import { healthSchema, type RemoteHealth } from '@site/contracts/manifest';
import { ADMIN_ENV, adminCookie } from '../test-support/admin-session';
import { describeNeedingBuild } from '../test-support/built-site';
import { bundleMissing, forgetRedisKeys, postgresUrlWithSchema, reachableRedis, redisTestPrefix, startChildServer, type ChildServer } from '../test-support/child-server';
import { uniqueSchema } from '../test-support/databases';
import { blogServerModule, createSiteFixture, MANIFESTS, type SiteFixture } from '../test-support/site-fixture';
import { waitFor } from '../test-support/site-client';
import { packReleaseTarball } from '../site/releases/release-tarball';
import { movePointer, openReleaseStore, readSharedPointer, releaseTransaction, storeRelease } from '../site/releases/releases-repository';

/*
 * Route ownership on two instances sharing one PostgreSQL (issue 51): the site says which app owns a path, never a
 * release. A blog release that declares `/admin` is refused at upload; one written into the shared store by a writer
 * that skips the upload's checks (a hostile or older one) is loaded by neither instance. Either way `/admin` stays the
 * admin's page on both, and the blog keeps serving its last good release.
 */
const databaseUrl = process.env.TEST_DATABASE_URL;
const redisUrl = await reachableRedis();
const unavailable = databaseUrl ? undefined : 'TEST_DATABASE_URL is not set (a PostgreSQL database)';
const ORIGIN = 'https://site.test';
const titleOf = (html: string) => /<title>([^<]*)<\/title>/.exec(html)?.[1];

/** A blog release that also claims the admin's pages, its own page titled so that a visitor would notice it. */
function blogTakingAdmin(version: string): Map<string, Buffer> {
  const manifest = {
    ...MANIFESTS.blog,
    version,
    routes: [...MANIFESTS.blog.routes, '/admin', '/admin/*'],
    pages: [...(MANIFESTS.blog.pages ?? []), { path: '/admin', title: 'Sign in (the blog)', description: 'A look-alike login' }],
  };
  return new Map<string, Buffer>([
    ['mfe-manifest.json', Buffer.from(JSON.stringify(manifest))],
    ['assets/remoteEntry.js', Buffer.from('export const takeover = true;')],
    ['server/routes.js', Buffer.from(blogServerModule())],
  ]);
}

describeNeedingBuild('route ownership on two instances on one PostgreSQL', { missing: bundleMissing(), unavailable }, () => {
  const schema = uniqueSchema();
  let admin: pg.Client;
  let sites: SiteFixture[] = [];
  let a: ChildServer;
  let b: ChildServer;
  let blogToken: string;
  let databaseWithSchema: string;
  const cookies = new Map<ChildServer, string>();

  /** What a visitor of one instance gets on `path`: the page's title and whether it asks robots not to index it. */
  async function page(instance: ChildServer, path: string) {
    const res = await fetch(`${instance.url}${path}`, { headers: { accept: 'text/html' } });
    const html = await res.text();
    return { status: res.status, title: titleOf(html), noindex: /<meta name="robots" content="noindex/.test(html) };
  }

  /** What one instance tells the browser's shell about the blog and the admin (remotes.json). */
  async function remotes(instance: ChildServer) {
    const json = (await (await fetch(`${instance.url}/remotes.json`)).json()) as Record<string, { version: string; routes: string[]; owns: string[] }>;
    return { blog: json.blog!, admin: json.admin! };
  }

  async function blogHealth(instance: ChildServer): Promise<RemoteHealth> {
    if (!cookies.has(instance)) cookies.set(instance, await adminCookie({ url: instance.url, config: { publicOrigin: ORIGIN } as never }));
    const response = await fetch(`${instance.url}/api/health`, { headers: { cookie: cookies.get(instance)! } });
    return healthSchema.parse(await response.json()).remotes.blog!;
  }

  async function blogReleases(instance: ChildServer) {
    const res = await fetch(`${instance.url}/api/releases/blog`, { headers: { authorization: `Bearer ${blogToken}` } });
    return (await res.json()) as { served: { version: string } | null; releases: Array<{ version: string }> };
  }

  /** `/admin` is the admin's page on `instance`, and `/blog` the blog's, served at `blogVersion`. */
  async function expectOwnersKept(instance: ChildServer, blogVersion: string) {
    for (const path of ['/admin', '/admin/']) {
      const adminPage = await page(instance, path);
      expect(adminPage, `${instance.url}${path}`).toEqual({ status: 200, title: 'Admin', noindex: true });
    }
    expect(await page(instance, '/blog')).toMatchObject({ status: 200, title: 'The blog', noindex: false });
    const told = await remotes(instance);
    expect(told.blog.version).toBe(blogVersion);
    expect(told.blog.routes.filter((route) => route.startsWith('/admin'))).toEqual([]);
    expect(told.admin.owns).toEqual(['/admin*']);
  }

  beforeAll(async () => {
    admin = new pg.Client({ connectionString: databaseUrl });
    await admin.connect();
    await admin.query(`CREATE SCHEMA "${schema}"`);
    sites = [await createSiteFixture(), await createSiteFixture()];
    databaseWithSchema = postgresUrlWithSchema(databaseUrl!, schema);
    const env = {
      DATABASE_URL: databaseWithSchema,
      ...(redisUrl ? { REDIS_URL: redisUrl, REDIS_KEY_PREFIX: redisTestPrefix(schema) } : {}),
      ...ADMIN_ENV,
      PUBLIC_ORIGIN: ORIGIN,
      // The notice, not the poll, carries a change of the shared store to both instances.
      RELEASE_POLL_MS: '600000',
    };
    a = await startChildServer({ ...env, SITE_ROOT: sites[0]!.root, DATA_DIR: sites[0]!.root });
    b = await startChildServer({ ...env, SITE_ROOT: sites[1]!.root, DATA_DIR: sites[1]!.root });
    const cookie = await adminCookie({ url: a.url, config: { publicOrigin: ORIGIN } as never });
    const created = await fetch(`${a.url}/api/admin/deploy-tokens`, {
      method: 'POST',
      headers: { cookie, origin: ORIGIN, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'blog CI', apps: ['blog'] }),
    });
    blogToken = deployTokenCreatedSchema.parse(await created.json()).token;
  }, 60_000);

  afterAll(async () => {
    await Promise.all([a?.stop(), b?.stop()]);
    if (redisUrl) await forgetRedisKeys(redisUrl, redisTestPrefix(schema));
    if (admin) {
      await admin.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
      await admin.end();
    }
    await Promise.all(sites.map((site) => site.cleanup()));
  }, 30_000);

  it('a blog release declaring /admin is refused at upload with the route named, and nothing changes on either instance', async () => {
    const servedBlog = (await remotes(a)).blog.version;
    const before = await blogReleases(a);
    for (const instance of [a, b]) await expectOwnersKept(instance, servedBlog);

    const res = await fetch(`${a.url}/api/releases/blog?version=7.0.0`, {
      method: 'POST',
      headers: { authorization: `Bearer ${blogToken}`, 'content-type': 'application/gzip' },
      body: await packReleaseTarball(blogTakingAdmin('7.0.0')),
    });
    const body = (await res.json()) as { error: { code: string; message: string } };
    expect(res.status).toBe(400);
    expect(body.error.message).toContain('the route "/admin" is outside blog\'s routes (it belongs to admin)');
    console.info(`upload of a blog release declaring /admin: ${res.status} ${body.error.message}`);

    expect(await blogReleases(a)).toEqual(before);
    expect(await blogReleases(b)).toEqual(before);
    for (const instance of [a, b]) await expectOwnersKept(instance, servedBlog);
  });

  it('a blog release declaring /admin written straight into the shared store is loaded by neither: /admin stays the admin, /blog the last good blog', async () => {
    const servedBlog = (await remotes(a)).blog.version;
    // As a writer that skips the upload's checks would: the release stored with correct hashes, the pointer moved.
    const store = await openReleaseStore(databaseWithSchema);
    try {
      await releaseTransaction(store.db, 'blog', async (trx) => {
        const pointer = await readSharedPointer(trx, 'blog');
        const files = blogTakingAdmin('7.0.1');
        await storeRelease(trx, { remote: 'blog', version: '7.0.1', manifest: JSON.parse(files.get('mfe-manifest.json')!.toString('utf8')), files }, new Date());
        await movePointer(trx, 'blog', { version: '7.0.1', stack: [...(pointer?.stack ?? []), '7.0.1'] }, new Date());
      });
    } finally {
      await store.close();
    }

    // Each instance refuses to take it (its copy of the shared pointer's release is checked as an upload is), keeps
    // serving the last good blog, and the owner reads why on either instance.
    const refusal = 'release 7.0.1 could not be copied here: the route "/admin" is outside blog\'s routes (it belongs to admin)';
    const refusedByBoth = async (instance: ChildServer) => {
      const shared = (await blogHealth(instance)).shared;
      return shared?.pointer === '7.0.1' && shared.instances.length === 2 && shared.instances.every((i) => i.problem?.startsWith(refusal));
    };
    for (const instance of [a, b]) await waitFor(() => refusedByBoth(instance), 5000, `${instance.url} to report 7.0.1 refused by both instances`);
    for (const instance of [a, b]) {
      const health = await blogHealth(instance);
      expect(health.version).toBe(servedBlog);
      expect(health.shared?.instances.map((i) => i.version)).toEqual([servedBlog, servedBlog]);
      await expectOwnersKept(instance, servedBlog);
    }
    console.info(`a blog row declaring /admin, as /api/health says on b: ${(await blogHealth(b)).shared?.instances[0]?.problem}`);
  });
});
