import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BLOG_ROUTES, blogCategoryPath, blogPostPath } from '@site/contracts/blog-routes';
import { errorEnvelopeSchema } from '@site/contracts/error';
import { bestRouteMatch } from '@site/contracts/route-match';
import { categoryListSchema, postListSchema, postSchema } from '@site/contracts/posts';
import { createSiteFixture, MANIFESTS, type SiteFixture } from '../../test-support/site-fixture';
import { testBackends, uniqueSchema } from '../../test-support/databases';
import { startTestServer, type TestServer } from '../../test-support/test-server';

describe.each(testBackends().map((b) => b.name))('public blog API (%s)', (backend) => {
  let server: TestServer;
  let site: SiteFixture;
  const schema = uniqueSchema();

  beforeAll(async () => {
    site = await createSiteFixture();
    server = await startTestServer({
      siteRoot: site.root,
      env: backend === 'postgres' ? { DATABASE_URL: process.env.TEST_DATABASE_URL } : {},
      deps: backend === 'postgres' ? { database: { pgSchema: schema } } : {},
    });
  });
  afterAll(async () => {
    await server.close();
    await site.cleanup();
  });

  const getJson = async (path: string) => {
    const res = await fetch(`${server.url}${path}`);
    return { status: res.status, body: (await res.json()) as unknown };
  };

  it('lists the published posts newest first, with search and category filters', async () => {
    const all = postListSchema.parse((await getJson('/api/posts')).body);
    expect(all.total).toBe(3);
    expect(all.posts.map((p) => p.views)).toEqual([1250, 890, 1100]);
    expect(all.posts[0]).not.toHaveProperty('content');
    const search = postListSchema.parse((await getJson('/api/posts?q=retail')).body);
    expect(search.posts.map((p) => p.category)).toEqual(['Industry Insights']);
    const byCategory = postListSchema.parse((await getJson('/api/posts?category=case-studies')).body);
    expect(byCategory.posts.map((p) => p.category)).toEqual(['Case Studies']);
  });

  it('pages with limit and cursor, counting every match in total', async () => {
    const all = postListSchema.parse((await getJson('/api/posts')).body);
    expect(all.nextCursor).toBeNull();
    const first = postListSchema.parse((await getJson('/api/posts?limit=2')).body);
    expect([first.posts.length, first.total]).toEqual([2, 3]);
    expect(first.nextCursor).toEqual(expect.any(String));
    const second = postListSchema.parse((await getJson(`/api/posts?limit=2&cursor=${encodeURIComponent(first.nextCursor!)}`)).body);
    expect([second.posts.length, second.total, second.nextCursor]).toEqual([1, 3, null]);
    expect([...first.posts, ...second.posts].map((p) => p.slug)).toEqual(all.posts.map((p) => p.slug));
    const byName = postListSchema.parse((await getJson('/api/posts?category=Case%20Studies&limit=1')).body);
    expect([byName.total, byName.posts.map((p) => p.categorySlug)]).toEqual([1, ['case-studies']]);
  });

  it('answers 400 with the error envelope for a bad limit or cursor', async () => {
    for (const query of ['limit=51', 'limit=0', 'limit=abc']) {
      const res = await getJson(`/api/posts?${query}`);
      expect(res.status, query).toBe(400);
      expect(errorEnvelopeSchema.parse(res.body).error.code).toBe('validation_failed');
    }
    const badCursor = await getJson('/api/posts?cursor=nonsense');
    expect(badCursor.status).toBe(400);
    expect(errorEnvelopeSchema.parse(badCursor.body).error.code).toBe('invalid_cursor');
  });

  it('refuses a parameter given twice (which one was meant is a guess) and names it; other repeated parameters are ignored', async () => {
    const twice = await getJson('/api/posts?limit=1&limit=2');
    expect(twice).toEqual({
      status: 400,
      body: { error: { code: 'validation_failed', message: 'limit: must be given once, got 2 values', details: [{ path: 'limit', message: 'must be given once, got 2 values' }] } },
    });
    const several = errorEnvelopeSchema.parse((await getJson('/api/posts?q=a&category=x&q=b&category=y&category=z')).body);
    expect(several.error.message).toBe('q: must be given once, got 2 values; category: must be given once, got 3 values');
    // Not a parameter of this list: as ignored as when given once.
    const utm = await getJson('/api/posts?utm_source=a&utm_source=b&limit=1');
    expect([utm.status, postListSchema.parse(utm.body).posts.length]).toEqual([200, 1]);
    // An empty parameter still counts as none.
    expect(postListSchema.parse((await getJson('/api/posts?q=&limit=')).body).total).toBe(3);
  });

  it('answers one post by slug, and 404 "Post not found" for an unknown slug', async () => {
    const { posts } = postListSchema.parse((await getJson('/api/posts')).body);
    const one = await getJson(`/api/posts/${posts[0]!.slug}`);
    expect(one.status).toBe(200);
    expect(postSchema.parse(one.body).content.length).toBeGreaterThan(1000);
    const missing = await getJson('/api/posts/no-such-post');
    expect(missing).toEqual({ status: 404, body: { error: { code: 'not_found', message: 'Post not found' } } });
  });

  it('adds one view per POST /api/posts/:slug/views', async () => {
    const { posts } = postListSchema.parse((await getJson('/api/posts')).body);
    const slug = posts[1]!.slug;
    const res = await fetch(`${server.url}/api/posts/${slug}/views`, { method: 'POST' });
    expect(await res.json()).toEqual({ views: posts[1]!.views + 1 });
    const unknown = await fetch(`${server.url}/api/posts/nope/views`, { method: 'POST' });
    expect(unknown.status).toBe(404);
  });

  it('lists the categories with derived counts', async () => {
    const { categories } = categoryListSchema.parse((await getJson('/api/categories')).body);
    expect(categories.map((c) => [c.name, c.slug, c.postCount])).toEqual([
      ['AI Automation', 'ai-automation', 1],
      ['Case Studies', 'case-studies', 1],
      ['Industry Insights', 'industry-insights', 1],
    ]);
  });

  it('serves /blog/:slug with the post title, description, canonical, og tags and Article JSON-LD', async () => {
    const { posts } = postListSchema.parse((await getJson('/api/posts')).body);
    const post = posts[0]!;
    const res = await fetch(`${server.url}/blog/${post.slug}`, { headers: { accept: 'text/html' } });
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toContain(`<title>${post.title} | Tri-Valley AI Automation</title>`);
    expect(html).toContain(`<meta name="description" content="${post.metaDescription}" />`);
    expect(html).toContain(`<link rel="canonical" href="https://example.test/blog/${post.slug}" />`);
    expect(html).toContain('<meta property="og:type" content="article" />');
    // The head comes from the blog remote's route table (here the site fixture's stand-in); the API makes its
    // URLs absolute. What the real blog head puts there (the placeholder's JPEG twin, the author) is tested in
    // mfe-blog/src/app/__tests__/routes.test.ts.
    expect(html).toMatch(/<meta property="og:image" content="https:\/\/example\.test\/mfe\/blog\/[^"]+" \/>/);
    const ld = /<script type="application\/ld\+json">(.*?)<\/script>/.exec(html)![1]!;
    expect(JSON.parse(ld)).toMatchObject({ '@type': 'Article', headline: post.title });
  });

  it('answers an unknown post with HTTP 404 and leaves /blog/category pages alone', async () => {
    const res = await fetch(`${server.url}/blog/this-post-does-not-exist`, { headers: { accept: 'text/html' } });
    expect(res.status).toBe(404);
    expect((await res.text())).toContain('noindex');
  });

  it('serves a valid RSS 2.0 feed of the published posts', async () => {
    const res = await fetch(`${server.url}/blog/rss.xml`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('application/rss+xml');
    const xml = await res.text();
    expect(xml.startsWith('<?xml version="1.0" encoding="UTF-8"?>\n<rss version="2.0"')).toBe(true);
    expect(xml.match(/<item>/g)).toHaveLength(3);
    expect(xml).toContain('<link>https://example.test/blog</link>');
    expect(xml).toMatch(/<pubDate>Mon, 15 Jan 2024 09:00:00 GMT<\/pubDate>/);
  });

  it('builds /sitemap.xml from the manifests pages (not noindex ones) and the published posts', async () => {
    const res = await fetch(`${server.url}/sitemap.xml`);
    expect(res.status).toBe(200);
    const xml = await res.text();
    const locs = [...xml.matchAll(/<loc>(.*?)<\/loc>/g)].map((m) => m[1]);
    expect(locs).toContain('https://example.test/');
    expect(locs).toContain('https://example.test/roi');
    expect(locs).toContain('https://example.test/blog');
    expect(locs).not.toContain('https://example.test/admin');
    expect(locs.filter((l) => /\/blog\/[a-z0-9-]+$/.test(l!) && !l!.includes('/category/'))).toHaveLength(3);
  });

  it("addresses feed items and sitemap pages with the blog's URL scheme, which the deployed blog routes", async () => {
    const { posts } = postListSchema.parse((await getJson('/api/posts')).body);
    const rss = await (await fetch(`${server.url}/blog/rss.xml`)).text();
    const itemLinks = [...rss.matchAll(/<item>\s*<title>.*?<\/title>\s*<link>(.*?)<\/link>/g)].map((m) => m[1]);
    expect(itemLinks).toEqual(posts.map((p) => `https://example.test${blogPostPath(p.slug)}`));
    const sitemap = await (await fetch(`${server.url}/sitemap.xml`)).text();
    const locs = [...sitemap.matchAll(/<loc>https:\/\/example\.test(.*?)<\/loc>/g)].map((m) => m[1]!);
    for (const p of posts) {
      expect(locs).toContain(blogPostPath(p.slug));
      expect(locs).toContain(blogCategoryPath(p.categorySlug));
    }
    // Each post and category address is a page of the blog remote's route table (its manifest), with its slug.
    const routed = locs.filter((l) => l.startsWith(BLOG_ROUTES.home + '/')).map((l) => bestRouteMatch(MANIFESTS.blog.routes, l));
    const sorted = (matches: unknown[]) => matches.map((m) => JSON.stringify(m)).sort();
    expect(sorted(routed)).toEqual(
      sorted([
        ...posts.map((p) => ({ pattern: BLOG_ROUTES.post, params: { slug: p.slug } })),
        ...[...new Set(posts.map((p) => p.categorySlug))].map((category) => ({ pattern: BLOG_ROUTES.category, params: { category } })),
      ]),
    );
  });

  // Last: it publishes a post, which the tests above would count.
  it('lists only categories with a published post, counting published posts only (drafts are invisible)', async () => {
    const post = (title: string, category: string) => ({
      title,
      excerpt: 'An excerpt long enough for the validation rules.',
      content: `<p>${'Body text of a post written for the category count test. '.repeat(3)}</p>`,
      author: 'Test Author',
      category,
      metaDescription: 'A meta description that is long enough for the rules of the blog.',
      keywords: [],
    });
    const { posts } = server.instance.services;
    const created = [];
    for (let i = 1; i <= 6; i++) created.push(await posts.create(post(`Draft test post ${i}`, 'Tests')));
    created.push(await posts.create(post('A case study still in draft', 'Case Studies')));
    created.push(await posts.create({ ...post('A published case study', 'Case Studies'), status: 'published' }, { allowStatus: true }));
    try {
      const res = await getJson('/api/categories');
      expect(res.status).toBe(200);
      const { categories } = categoryListSchema.parse(res.body);
      expect(categories.map((c) => [c.name, c.postCount])).toEqual([
        ['AI Automation', 1],
        ['Case Studies', 2],
        ['Industry Insights', 1],
      ]);
      // What /api/posts lists for each category is exactly what its count says.
      for (const c of categories) {
        expect(postListSchema.parse((await getJson(`/api/posts?category=${c.slug}`)).body).total, c.slug).toBe(c.postCount);
      }
    } finally {
      for (const p of created) await posts.delete(p.id);
    }
  });
});
