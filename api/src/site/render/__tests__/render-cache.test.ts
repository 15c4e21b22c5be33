import { copyFile, mkdir, readFile, symlink } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { healthSchema } from '@site/contracts/manifest';
import type { Post } from '@site/contracts/posts';
import { ADMIN_ENV, adminCookie } from '../../../test-support/admin-session';
import { describeNeedingBuild, REPO_ROOT, serverEntriesMissing } from '../../../test-support/built-site';
import { createSiteFixture, MANIFESTS, renderingBlogEntry, type SiteFixture } from '../../../test-support/site-fixture';
import { SERVE_BUILDS_IN_PLACE, startTestServer, type TestServer } from '../../../test-support/test-server';
import { createRenderCache } from '../render-cache';

/*
 * The render cache (render-cache.ts) through the real server: the built shell's server entry around a blog server
 * module that renders the titles of its data, on a fixture site root.
 */

const blogEntry = renderingBlogEntry;

const POST = {
  excerpt: 'A short summary of the post for the list.',
  content: `<p>${'Some words of the post to read. '.repeat(4)}</p>`,
  author: 'Tri-Valley AI Team',
  metaDescription: 'A post of the render cache test, long enough to be a description.',
};

describeNeedingBuild('the render cache (built shell server entry, temp SITE_ROOT)', { missing: serverEntriesMissing() }, () => {
  let site: SiteFixture;
  let server: TestServer;
  let release = 0;
  const posts: Record<string, Post> = {};

  const deployBlog = async (label = 'Fixture blog') => {
    await site.writeFile('mfe-blog/dist/server/entry.js', blogEntry(label));
    await site.writeManifest('blog', { ...MANIFESTS.blog, version: `1.0.${++release}`, server: { entry: 'server/entry.js' } });
  };

  /** GET a page as a browser does; what the render cache did (X-Render-Cache) and the page. */
  async function visit(pathname: string, headers: Record<string, string> = {}) {
    const response = await fetch(`${server.url}${pathname}`, { headers: { accept: 'text/html', ...headers } });
    return { status: response.status, cache: response.headers.get('x-render-cache'), headers: response.headers, html: await response.text() };
  }

  /** Visits each page until it is kept, so that the next visit says whether a change dropped it. */
  async function warm(...paths: string[]) {
    for (const p of paths) {
      await visit(p);
      expect((await visit(p)).cache, p).toBe('hit');
    }
  }
  const dropped = async (...paths: string[]) => Object.fromEntries(await Promise.all(paths.map(async (p) => [p, (await visit(p)).cache === 'miss'])));

  beforeAll(async () => {
    site = await createSiteFixture();
    await mkdir(path.join(site.root, 'shell/dist/server'), { recursive: true });
    await copyFile(path.join(REPO_ROOT, 'shell/dist/server/entry.js'), path.join(site.root, 'shell/dist/server/entry.js'));
    await symlink(path.join(REPO_ROOT, 'shell/node_modules'), path.join(site.root, 'node_modules'), 'dir');
    await deployBlog();
    server = await startTestServer({ siteRoot: site.root, env: { ...SERVE_BUILDS_IN_PLACE, ...ADMIN_ENV, SSR_TIMEOUT_MS: '2000' } });
    const create = (title: string, category: string, status: 'published' | 'draft') =>
      server.instance.services.posts.create({ ...POST, title, category, status }, { allowStatus: true });
    posts.a = await create('Chatbots for dentists', 'Case Studies', 'published');
    posts.b = await create('Invoices without typing', 'AI Automation', 'published');
    posts.draft = await create('A draft about scheduling', 'AI Automation', 'draft');
  }, 30_000);
  afterAll(async () => {
    await server?.close();
    await site?.cleanup();
  });
  // Each test starts from a blog release of its own: nothing kept from the test before. The registry reads a dist's
  // new manifest, then the server module it names (two resolutions): settled before the test's first visit.
  beforeEach(async () => {
    await deployBlog();
    for (let i = 0; i < 2; i++) await fetch(`${server.url}/remotes.json`);
  });

  it('renders a page once, then sends it kept: the same bytes, a strong ETag, 304 for a browser revalidating it', async () => {
    const first = await visit('/blog/' + posts.a!.slug);
    expect(first.status).toBe(200);
    expect(first.cache).toBe('miss');
    expect(first.html).toContain('<li>Chatbots for dentists</li>');
    const second = await visit('/blog/' + posts.a!.slug);
    expect(second.cache).toBe('hit');
    expect(second.html).toBe(first.html);
    const etag = second.headers.get('etag')!;
    expect(etag).toMatch(/^"[\w-]{32}"$/);

    const revalidated = await fetch(`${server.url}/blog/${posts.a!.slug}`, { headers: { accept: 'text/html', 'if-none-match': etag } });
    expect(revalidated.status).toBe(304);
    expect(await revalidated.text()).toBe('');
    const other = await fetch(`${server.url}/blog/${posts.a!.slug}`, { headers: { accept: 'text/html', 'if-none-match': '"something-else"' } });
    expect(other.status).toBe(200);

    // br and gzip are the same document (fetch decodes them), each sent as stored.
    for (const encoding of ['br', 'gzip']) {
      const encoded = await visit('/blog/' + posts.a!.slug, { 'accept-encoding': encoding });
      expect(encoded.headers.get('content-encoding')).toBe(encoding);
      expect(encoded.html).toBe(first.html);
    }
  });

  it('tells browsers to revalidate and CDNs to keep it a minute, naming what it was made from', async () => {
    await visit('/blog/category/case-studies');
    const { headers } = await visit('/blog/category/case-studies');
    expect(headers.get('cache-control')).toBe('no-cache');
    expect(headers.get('cdn-cache-control')).toBe('max-age=60, stale-while-revalidate=600');
    expect(headers.get('surrogate-key')).toBe('page category:case-studies remote:blog');
    expect(headers.get('cache-tag')).toBe('page,category:case-studies,remote:blog');
    expect(headers.get('vary')).toMatch(/Accept-Encoding/);
  });

  it('drops exactly what a post change touches: its page, the index and its categories, nothing else', async () => {
    const [a, b] = [`/blog/${posts.a!.slug}`, `/blog/${posts.b!.slug}`];
    const pages = ['/blog', a, b, '/blog/category/case-studies', '/blog/category/ai-automation'];

    // Post a (published, Case Studies) edited: its page, the index and its category.
    await warm(...pages);
    posts.a = await server.instance.services.posts.update(posts.a!.id, { ...POST, title: 'Chatbots for dentists, updated', category: 'Case Studies' });
    expect(await dropped(...pages)).toEqual({ '/blog': true, [a]: true, [b]: false, '/blog/category/case-studies': true, '/blog/category/ai-automation': false });
    expect((await visit(a)).html).toContain('<li>Chatbots for dentists, updated</li>');

    // A draft edited: no public page shows it, nothing is dropped.
    await warm(...pages);
    await server.instance.services.posts.update(posts.draft!.id, { ...POST, title: 'A draft about scheduling, reworded', category: 'AI Automation' });
    expect(await dropped(...pages)).toEqual(Object.fromEntries(pages.map((p) => [p, false])));

    // The draft published: the index, its category and its own address (a 404 until now) show it at once.
    const draftPage = `/blog/${posts.draft!.slug}`;
    expect((await visit(draftPage)).status).toBe(404);
    await warm(...pages);
    posts.draft = await server.instance.services.posts.publish(posts.draft!.id);
    expect(await dropped(...pages)).toEqual({ '/blog': true, [a]: false, [b]: false, '/blog/category/case-studies': false, '/blog/category/ai-automation': true });
    expect((await visit(draftPage)).status).toBe(200);
    expect((await visit('/blog/category/ai-automation')).html).toContain('A draft about scheduling, reworded');

    // Post b deleted: its page is a 404 at once, and the lists it was in no longer show it.
    await warm(...pages);
    await server.instance.services.posts.delete(posts.b!.id);
    expect(await dropped('/blog', a, '/blog/category/case-studies')).toEqual({ '/blog': true, [a]: false, '/blog/category/case-studies': false });
    expect((await visit(b)).status).toBe(404);
    expect((await visit('/blog')).html).not.toContain('Invoices without typing');
  });

  it('a deploy of the remote drops its pages: the next visit renders the new release', async () => {
    await warm('/blog');
    await deployBlog('Fixture blog, next release');
    const next = await visit('/blog');
    expect(next.cache).toBe('miss');
    expect(next.html).toContain('<h1>Fixture blog, next release</h1>');
  });

  it('a change of the shell drops every page: its document is part of each page', async () => {
    await warm('/blog');
    const index = path.join(site.root, 'shell/dist/index.html');
    await site.writeFile('shell/dist/index.html', (await readFile(index, 'utf8')).replace('</head>', '<meta name="x-shell" content="2"></head>'));
    const next = await visit('/blog');
    expect(next.cache).toBe('miss');
    expect(next.html).toContain('name="x-shell"');
  });

  it('100 visitors asking for a page no one has rendered yet: one render, the others get it', async () => {
    const answers = await Promise.all(Array.from({ length: 100 }, () => visit('/blog')));
    const counts = answers.reduce<Record<string, number>>((sum, a) => ({ ...sum, [a.cache ?? 'none']: (sum[a.cache ?? 'none'] ?? 0) + 1 }), {});
    expect(counts.miss).toBe(1);
    expect((counts.coalesced ?? 0) + (counts.hit ?? 0)).toBe(99);
    expect(new Set(answers.map((a) => a.html)).size).toBe(1);
  });

  it('keeps nothing with a query string, nothing of the admin area, and never a page rendered in the browser after a failure', async () => {
    for (const p of ['/blog?q=chatbots', '/admin']) {
      await visit(p);
      expect((await visit(p)).cache, p).toBe('bypass');
    }
    // A render that throws: the page goes out with the blog's area for the browser, and is not kept.
    await site.writeFile('mfe-blog/dist/server/entry.js', blogEntry('x').replace('return {', "throw new Error('boom');\n  return {"));
    await site.writeManifest('blog', { ...MANIFESTS.blog, version: `1.0.${++release}-throws`, server: { entry: 'server/entry.js' } });
    expect((await visit('/blog')).cache).toBe('miss');
    expect((await visit('/blog')).cache).toBe('miss');
  });

  it("shows an admin the hit ratio in /api/health (anyone else does not see it)", async () => {
    await warm('/blog');
    const admin = healthSchema.parse(await (await fetch(`${server.url}/api/health`, { headers: { cookie: await adminCookie(server) } })).json());
    expect(admin.renderCache?.hits).toBeGreaterThan(0);
    expect(admin.renderCache?.hitRatio).toBeGreaterThan(0);
    expect(admin.renderCache?.maxBytes).toBe(64 * 1024 * 1024);
    const anyone = healthSchema.parse(await (await fetch(`${server.url}/api/health`)).json());
    expect(anyone.renderCache).toBeUndefined();
  });
});

describe('render cache memory', () => {
  it('keeps at most maxBytes: the least recently used pages go first', async () => {
    const cache = createRenderCache({ maxBytes: 40_000 });
    const page = (i: number) => `<!doctype html><p>${String(i).repeat(2000)}</p>`;
    for (let i = 0; i < 10; i++) {
      const lookup = cache.lookup(`/p${i}`);
      if (lookup.kind !== 'render') throw new Error('expected a miss');
      lookup.done({ status: 200, html: page(i), tags: [], cacheable: true });
      // /p0 stays in use.
      expect(cache.lookup('/p0').kind).toBe('fresh');
    }
    const stats = cache.stats();
    expect(stats.bytes).toBeLessThanOrEqual(40_000);
    expect(stats.entries).toBeLessThan(10);
    expect(cache.lookup('/p0').kind).toBe('fresh');
    expect(cache.lookup('/p1').kind).toBe('render');
  });

  it('keeps 404s in an eighth of it: made-up addresses do not push pages out', () => {
    const cache = createRenderCache({ maxBytes: 80_000 });
    const keep = (key: string, status: number) => {
      const lookup = cache.lookup(key);
      if (lookup.kind !== 'render') throw new Error('expected a miss');
      lookup.done({ status, html: `<p>${key.repeat(400)}</p>`, tags: [], cacheable: true });
    };
    keep('/blog', 200);
    for (let i = 0; i < 50; i++) keep(`/blog/made-up-${i}`, 404);
    expect(cache.lookup('/blog').kind).toBe('fresh');
    expect(cache.stats().entries).toBeLessThan(10);
  });

  it('does not keep a render that started before an invalidation of what it shows', async () => {
    const cache = createRenderCache();
    const lookup = cache.lookup('/blog/a');
    if (lookup.kind !== 'render') throw new Error('expected a miss');
    cache.invalidate(['post:a']);
    lookup.done({ status: 200, html: '<p>old a</p>', tags: ['post:a'], cacheable: true });
    expect(cache.lookup('/blog/a').kind).toBe('render');
  });
});
