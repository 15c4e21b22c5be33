import { copyFile, mkdir, readdir, readFile, symlink } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { appReleasesSchema, deployLogPageSchema, deployTokenCreatedSchema, releaseChangeSchema } from '@site/contracts/deploys';
import type { Post } from '@site/contracts/posts';
import { ADMIN_ENV, adminCookie } from '../../../test-support/admin-session';
import { describeNeedingBuild, REPO_ROOT, serverEntriesMissing } from '../../../test-support/built-site';
import { createSiteFixture, MANIFESTS, renderingBlogEntry, type SiteFixture } from '../../../test-support/site-fixture';
import { startTestServer, type TestServer } from '../../../test-support/test-server';
import { packReleaseTarball } from '../release-tarball';

/*
 * The smoke render (issue 51): an upload's pages are rendered on a worker, with the site's real data, before anything
 * is stored. A page that throws, or a release that runs past the deadline, is answered 400 `smoke_render_failed` with
 * the page and the error's first line, staged or not, and nothing changes: the release list, the pointer, what is
 * served. A page that loops holds the worker only: the server keeps answering meanwhile. One that renders is accepted.
 */

/** The deadline of the server the looping releases go to (the other keeps the default, 10 s, for a busy machine). */
const SHORT_DEADLINE_MS = 2000;
const ROUTES = `
export const routes = [
  { path: '/blog', data: { source: 'post-list' } },
  { path: '/blog/category/:category', data: { source: 'post-list', param: 'category' } },
  { path: '/blog/:slug', data: { source: 'post', param: 'slug' }, head: (params, post) => ({ path: '/blog/' + post.slug, title: post.title, description: post.excerpt }) },
];`;

/** A blog server entry whose post page reads a field the real post does not have, while React renders it. */
const THROWS_ON_A_REAL_POST = `
import { createElement } from 'react';
${ROUTES}
function PostPage({ post }) {
  return createElement('h1', null, post.author.name.first);
}
export async function render(url, ctx) {
  if (ctx.source === 'post') return { element: createElement(PostPage, { post: ctx.data }), status: 200 };
  return { element: createElement('h1', null, 'Every post'), status: 200 };
}
`;
/** A blog server entry whose render throws on every page. */
const THROWS_IN_RENDER = `${ROUTES}
export async function render() {
  throw new Error('boom in render\\nsecond line');
}
`;
/** A blog server entry whose render never returns. */
const LOOPS_IN_RENDER = `${ROUTES}
export async function render() {
  while (true) {}
}
`;
/** A blog server module whose own code never finishes loading. */
const LOOPS_WHILE_LOADING = `${ROUTES}
while (true) {}
export async function render() {}
`;

describeNeedingBuild('the smoke render of an uploaded release (built shell server entry)', { missing: serverEntriesMissing() }, () => {
  interface Site {
    site: SiteFixture;
    server: TestServer;
    token: string;
    admin: string;
    post: Post;
  }
  const started: Site[] = [];
  let site: Site;

  /** A site whose served blog renders on the server (the built shell's server entry), with one published post. */
  async function startSite(env: Record<string, string> = {}): Promise<Site> {
    const fixture = await createSiteFixture();
    await mkdir(path.join(fixture.root, 'shell/dist/server'), { recursive: true });
    await copyFile(path.join(REPO_ROOT, 'shell/dist/server/entry.js'), path.join(fixture.root, 'shell/dist/server/entry.js'));
    // React for the server entries, where a SITE_ROOT must have it.
    await symlink(path.join(REPO_ROOT, 'shell/node_modules'), path.join(fixture.root, 'node_modules'), 'dir');
    await fixture.writeFile('mfe-blog/dist/server/entry.js', renderingBlogEntry('Fixture blog'));
    await fixture.writeManifest('blog', { ...MANIFESTS.blog, server: { entry: 'server/entry.js' } });
    const server = await startTestServer({ siteRoot: fixture.root, env: { ...ADMIN_ENV, ...env } });
    const s: Site = { site: fixture, server, token: '', admin: await adminCookie(server), post: undefined as never };
    started.push(s);
    s.post = await server.instance.services.posts.create(
      {
        title: 'Chatbots for dentists',
        excerpt: 'How a two-chair practice answers patients after hours.',
        content: `<p>${'A small practice can answer the common questions of its patients at any hour. '.repeat(3)}</p>`,
        author: 'Tri-Valley AI Team',
        category: 'Case Studies',
        metaDescription: 'A Danville dental practice answers patient questions at night with a small chatbot.',
        status: 'published',
      },
      { allowStatus: true },
    );
    const created = await fetch(`${server.url}/api/admin/deploy-tokens`, {
      method: 'POST',
      headers: { cookie: s.admin, origin: server.config.publicOrigin, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'blog CI', apps: ['blog'] }),
    });
    s.token = deployTokenCreatedSchema.parse(await created.json()).token;
    return s;
  }

  beforeAll(async () => {
    site = await startSite();
  }, 60_000);
  afterAll(async () => {
    for (const s of started) {
      await s.server.close();
      await s.site.cleanup();
    }
  });

  function blogRelease(version: string, entry: string): Map<string, Buffer> {
    return new Map([
      ['mfe-manifest.json', Buffer.from(JSON.stringify({ ...MANIFESTS.blog, version, server: { entry: 'server/entry.js' } }))],
      ['assets/remoteEntry.js', Buffer.from(`export const version = ${JSON.stringify(version)};`)],
      ['server/entry.js', Buffer.from(entry)],
    ]);
  }

  async function upload(s: Site, version: string, entry: string, query = '') {
    const res = await fetch(`${s.server.url}/api/releases/blog?version=${version}${query}`, {
      method: 'POST',
      headers: { 'content-type': 'application/gzip', authorization: `Bearer ${s.token}` },
      body: await packReleaseTarball(blogRelease(version, entry)),
    });
    return { status: res.status, body: (await res.json()) as { error?: { code: string; message: string } } & Record<string, unknown> };
  }

  /** Everything a refusal must leave as it was: the release list, the pointer, the folders, what visitors get. */
  async function state(s: Site) {
    const list = appReleasesSchema.parse(await (await fetch(`${s.server.url}/api/releases/blog`, { headers: { authorization: `Bearer ${s.token}` } })).json());
    const dir = path.join(s.site.root, 'mfe-blog');
    const page = await (await fetch(`${s.server.url}/blog/${s.post.slug}`, { headers: { accept: 'text/html' } })).text();
    const remotes = (await (await fetch(`${s.server.url}/remotes.json`)).json()) as { blog?: { version: string } };
    return {
      served: list.served?.version,
      releases: list.releases.map((r) => `${r.version}${r.staged ? ' (staged)' : ''}`),
      pointer: (await readFile(path.join(dir, 'current'), 'utf8')).trim(),
      folders: { releases: (await readdir(path.join(dir, 'releases'))).sort(), staged: (await readdir(path.join(dir, 'staged')).catch(() => [])).sort() },
      remotes: remotes.blog?.version,
      heading: /<h1>([^<]*)<\/h1>/.exec(page)?.[1],
    };
  }

  async function lastLogEntry(s: Site) {
    const res = await fetch(`${s.server.url}/api/admin/deploys?limit=1`, { headers: { cookie: s.admin } });
    return deployLogPageSchema.parse(await res.json()).entries[0];
  }

  it('refuses a release whose page throws on the real data, naming the page and the first line, and changes nothing', async () => {
    const before = await state(site);
    expect(before.heading).toBe('Fixture blog');

    const refused = await upload(site, '2.0.0', THROWS_ON_A_REAL_POST);
    expect(refused.status).toBe(400);
    // The real post's page: its slug and its data are the site's.
    expect(refused.body.error).toEqual({
      code: 'smoke_render_failed',
      message: `smoke render of /blog/${site.post.slug} failed: TypeError: Cannot read properties of undefined (reading 'first')`,
    });
    expect(await state(site)).toEqual(before);
    expect(await lastLogEntry(site)).toMatchObject({ app: 'blog', action: 'deploy', version: '2.0.0', result: 'refused', message: refused.body.error!.message });

    // Staged too: nothing is stored as servable, not even for a preview. Only the first line of the error is named.
    const staged = await upload(site, '2.0.1', THROWS_IN_RENDER, '&stage=1');
    expect(staged.status).toBe(400);
    expect(staged.body.error).toEqual({ code: 'smoke_render_failed', message: 'smoke render of /blog failed: Error: boom in render' });
    expect(await state(site)).toEqual(before);
  }, 30_000);

  it('refuses a release that does not render within the deadline, while the server keeps answering', async () => {
    const short = await startSite({ RELEASE_SMOKE_RENDER_TIMEOUT_MS: String(SHORT_DEADLINE_MS) });
    const before = await state(short);
    for (const [version, entry, message] of [
      ['2.1.0', LOOPS_IN_RENDER, `smoke render of /blog failed: it did not render in ${SHORT_DEADLINE_MS / 1000} s`],
      ['2.1.1', LOOPS_WHILE_LOADING, `smoke render of blog 2.1.1 failed: it did not render in ${SHORT_DEADLINE_MS / 1000} s (its server code did not finish loading)`],
    ] as const) {
      // Liveness meanwhile: how long each answer of /api/health/live took while the release was being rendered.
      const answers: Array<{ status: number; ms: number }> = [];
      let rendering = true;
      const probing = (async () => {
        while (rendering) {
          const sent = performance.now();
          const res = await fetch(`${short.server.url}/api/health/live`);
          await res.arrayBuffer();
          answers.push({ status: res.status, ms: performance.now() - sent });
          await new Promise((resolve) => setTimeout(resolve, 50));
        }
      })();
      const sent = performance.now();
      const refused = await upload(short, version, entry).finally(() => {
        rendering = false;
      });
      const took = performance.now() - sent;
      await probing;
      expect(refused.status).toBe(400);
      expect(refused.body.error).toEqual({ code: 'smoke_render_failed', message });
      expect(took).toBeGreaterThanOrEqual(SHORT_DEADLINE_MS);
      expect(took).toBeLessThan(SHORT_DEADLINE_MS + 5000);
      expect(answers.length).toBeGreaterThan(10);
      expect(answers.every((a) => a.status === 200)).toBe(true);
      expect(Math.max(...answers.map((a) => a.ms))).toBeLessThan(1000);
      expect(await state(short)).toEqual(before);
    }
  }, 60_000);

  it('accepts a release whose every page renders, and serves it', async () => {
    const accepted = await upload(site, '3.0.0', renderingBlogEntry('Blog, third edition'));
    expect(accepted.status).toBe(201);
    const change = releaseChangeSchema.parse(accepted.body);
    // Every declared page, a route's param filled from the site's data (the newest post, its category).
    expect(change.checked).toContain(`3 pages render (/blog, /blog/category/${site.post.categorySlug}, /blog/${site.post.slug})`);
    const after = await state(site);
    expect(after).toMatchObject({ served: '3.0.0', pointer: '3.0.0', remotes: '3.0.0', heading: 'Blog, third edition' });
    expect(after.folders.releases.filter((name) => name.startsWith('.'))).toEqual([]);
  }, 30_000);
});
