import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appReleasesSchema, deployTokenCreatedSchema } from '@site/contracts/deploys';
import type { MfeManifest } from '@site/contracts/manifest';
import { ADMIN_ENV, adminCookie } from '../../test-support/admin-session';
import { blogServerModule, createSiteFixture, MANIFESTS, type SiteFixture } from '../../test-support/site-fixture';
import { startTestServer, type TestServer } from '../../test-support/test-server';
import { packReleaseTarball } from '../../site/releases/release-tarball';

/*
 * Issue 51 at upload: a blog release (blog token) that declares the admin's routes, or carries more routes, pages or
 * manifest bytes than the limits, is refused with a 4xx naming the route or the limit, and nothing changes: the
 * release list, the pointer, what is served. The load side: site/releases/__tests__/release-policy.test.ts.
 */

let site: SiteFixture;
let server: TestServer;
let blogToken: string;

beforeAll(async () => {
  site = await createSiteFixture();
  server = await startTestServer({ siteRoot: site.root, env: ADMIN_ENV });
  const cookie = await adminCookie(server);
  const res = await fetch(`${server.url}/api/admin/deploy-tokens`, {
    method: 'POST',
    headers: { cookie, origin: server.config.publicOrigin, 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'blog CI', apps: ['blog'] }),
  });
  expect(res.status).toBe(201);
  blogToken = deployTokenCreatedSchema.parse(await res.json()).token;
});
afterAll(async () => {
  await server?.close();
  await site?.cleanup();
});

function blogBuild(manifest: Partial<MfeManifest>): Map<string, Buffer> {
  return new Map([
    ['mfe-manifest.json', Buffer.from(JSON.stringify({ ...MANIFESTS.blog, ...manifest }))],
    ['assets/remoteEntry.js', Buffer.from('export const blog = 1;')],
    ['server/routes.js', Buffer.from(blogServerModule())],
  ]);
}

async function upload(manifest: Partial<MfeManifest>) {
  const res = await fetch(`${server.url}/api/releases/blog`, {
    method: 'POST',
    headers: { 'content-type': 'application/gzip', authorization: `Bearer ${blogToken}` },
    body: await packReleaseTarball(blogBuild(manifest)),
  });
  return { status: res.status, body: (await res.json()) as { error?: { code?: string; message?: string } } };
}

/** What a caller can see of the blog's state: its releases and pointer, what is served, who renders /admin. */
async function state() {
  const list = appReleasesSchema.parse(await (await fetch(`${server.url}/api/releases/blog`, { headers: { authorization: `Bearer ${blogToken}` } })).json());
  const remotes = (await (await fetch(`${server.url}/remotes.json`)).json()) as Record<string, { version: string; routes: string[] }>;
  const admin = await fetch(`${server.url}/admin`, { headers: { accept: 'text/html' } });
  const folders = await readdir(path.join(site.root, 'mfe-blog', 'releases')).catch(() => [] as string[]);
  return { list, blog: remotes.blog, adminStatus: admin.status, adminTitle: /<title>([^<]*)<\/title>/.exec(await admin.text())?.[1], folders: folders.sort() };
}

describe('a release is refused at upload when it declares what is not its own (issue 51)', () => {
  const cases: Array<[string, Partial<MfeManifest>, RegExp]> = [
    ['declares /admin and /admin/*', { version: '6.6.6', routes: ['/blog', '/blog/:slug', '/admin', '/admin/*'] }, /the route "\/admin" is outside blog's routes \(it belongs to admin\): blog owns \/blog\*/],
    ['takes the feed', { version: '6.6.7', routes: ['/blog', '/blog/rss.xml'] }, /the route "\/blog\/rss.xml" is outside blog's routes \(it belongs to the server\)/],
    ['declares 300,000 routes (the stall)', { version: '6.6.8', routes: Array.from({ length: 300_000 }, (_, i) => `/blog/r${i}`) }, /mfe-manifest.json is \d+ KB, over the limit of 256 KB \(RELEASE_MAX_MANIFEST_KB\)/],
    ['declares 201 routes', { version: '6.6.9', routes: Array.from({ length: 201 }, (_, i) => `/blog/r${i}`) }, /declares 201 routes, over the limit of 200 \(RELEASE_MAX_ROUTES\)/],
    ['declares 201 pages', { version: '6.7.0', pages: Array.from({ length: 201 }, (_, i) => ({ path: `/blog/p${i}`, title: 'T', description: 'D' })) }, /declares 201 pages, over the limit of 200 \(RELEASE_MAX_PAGES\)/],
  ];

  it('refuses each with a 400 naming the route or the limit, and nothing changes', async () => {
    const before = await state();
    expect(before.adminStatus).toBe(200);
    expect(before.adminTitle).toMatch(/^Admin/);
    for (const [what, manifest, message] of cases) {
      const res = await upload(manifest);
      expect(res.status, what).toBe(400);
      expect(res.body.error?.code, what).toBe('release_refused');
      expect(res.body.error?.message, what).toMatch(message);
      expect(await state(), what).toEqual(before);
    }
  }, 60_000);

  it('still takes a blog release that declares only the blog’s routes', async () => {
    const res = await upload({ version: '7.0.0', routes: ['/blog', '/blog/category/:category', '/blog/:slug'] });
    expect(res.status).toBe(201);
    const after = await state();
    expect(after.blog.version).toBe('7.0.0');
    expect(after.adminTitle).toMatch(/^Admin/);
  });
});
