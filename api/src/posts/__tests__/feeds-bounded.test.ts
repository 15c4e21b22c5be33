import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { blogPostPath } from '@site/contracts/blog-routes';
import { testBackends, uniqueSchema } from '../../test-support/databases';
import { createSiteFixture, type SiteFixture } from '../../test-support/site-fixture';
import { startTestServer, type TestServer } from '../../test-support/test-server';

/*
 * The feed and the sitemap stay the same size whatever the number of posts: the feed carries the newest 50, and past
 * SITEMAP_URLS_PER_FILE addresses the sitemap is an index of parts (here 20 per file, against 60 published posts).
 * Both are kept until a post changes, and answer 304 to a client that has them.
 */
const PER_FILE = 20;
const ORIGIN = 'https://example.test';

describe.each(testBackends().map((b) => b.name))('feed and sitemap at any number of posts (%s)', (backend) => {
  let server: TestServer;
  let site: SiteFixture;
  const schema = uniqueSchema();
  let published: string[] = [];
  const queries: string[] = [];
  /** The app's clock (the render cache's too): a test moves it on. */
  let clockOffset = 0;

  const get = (path: string, headers: Record<string, string> = {}) => fetch(`${server.url}${path}`, { headers });
  const locs = (xml: string) => [...xml.matchAll(/<loc>(.*?)<\/loc>/g)].map((m) => m[1]!);
  const rssItems = (xml: string) => [...xml.matchAll(/<item>\s*<title>.*?<\/title>\s*<link>(.*?)<\/link>/g)].map((m) => m[1]!);

  const publish = async (i: number) => {
    const stamp = String(i).padStart(3, '0');
    const post = await server.instance.services.posts.create(
      {
        title: `Feed size test post ${stamp}`,
        excerpt: 'An excerpt long enough for the validation rules.',
        content: `<p>${'Body text of a post written for the feed size test. '.repeat(3)}</p>`,
        author: 'Test Author',
        category: i % 2 ? 'AI Automation' : 'Case Studies',
        metaDescription: 'A meta description that is long enough for the rules of the blog.',
        keywords: [],
        status: 'published',
      },
      { allowStatus: true },
    );
    return post.slug;
  };

  beforeAll(async () => {
    site = await createSiteFixture();
    server = await startTestServer({
      siteRoot: site.root,
      env: { SITEMAP_URLS_PER_FILE: String(PER_FILE), ...(backend === 'postgres' ? { DATABASE_URL: process.env.TEST_DATABASE_URL } : {}) },
      // Every query the app runs is noted (Kysely's log), so a test can say which ones a request made. The scheduler polls
      // hourly here: no query of its own lands in the middle of a test.
      deps: { database: { ...(backend === 'postgres' ? { pgSchema: schema } : {}), onQuery: (event) => queries.push(event.query.sql) },
        schedulerPollMs: 3_600_000,
        clock: () => new Date(Date.now() + clockOffset),
      },
    });
    for (let i = 1; i <= 57; i++) await publish(i);
    const { total } = await server.instance.services.posts.pagePublished({ limit: 1 });
    expect(total).toBe(60);
    const parts = await server.instance.services.posts.sitemapParts(1_000);
    published = (await server.instance.services.posts.sitemapPart(parts[0]!.first, 1_000)).map((p) => p.slug);
  }, 60_000);
  afterAll(async () => {
    await server?.close();
    await site?.cleanup();
  });

  it('the feed carries the newest 50 posts, newest first, with ETag and Last-Modified, and 304 when unchanged', async () => {
    const res = await get('/blog/rss.xml');
    expect(res.status).toBe(200);
    const items = rssItems(await res.text());
    expect(items).toHaveLength(50);
    expect(items[0]).toBe(`${ORIGIN}${blogPostPath(published.at(-1)!)}`);
    expect(items).not.toContain(`${ORIGIN}${blogPostPath(published[0]!)}`);
    const etag = res.headers.get('etag')!;
    const lastModified = res.headers.get('last-modified')!;
    expect(etag).toMatch(/^"/);
    expect(Date.parse(lastModified)).not.toBeNaN();
    expect((await get('/blog/rss.xml', { 'if-none-match': etag })).status).toBe(304);
    expect((await get('/blog/rss.xml', { 'if-modified-since': lastModified })).status).toBe(304);
    expect((await get('/blog/rss.xml', { 'if-none-match': '"something-else"' })).status).toBe(200);
  });

  it('past the per-file limit the sitemap is an index of parts, none over the limit, together naming every post once', async () => {
    const res = await get('/sitemap.xml');
    expect(res.status).toBe(200);
    const index = await res.text();
    expect(index).toContain('<sitemapindex');
    const parts = locs(index);
    expect(parts).toEqual([`${ORIGIN}/sitemaps/pages.xml`, `${ORIGIN}/sitemaps/posts-1.xml`, `${ORIGIN}/sitemaps/posts-2.xml`, `${ORIGIN}/sitemaps/posts-3.xml`]);
    expect([...index.matchAll(/<lastmod>\d{4}-\d{2}-\d{2}<\/lastmod>/g)]).toHaveLength(parts.length);
    const posts: string[] = [];
    for (const part of parts) {
      const answer = await get(new URL(part).pathname, { 'accept-encoding': 'gzip' });
      expect(answer.status, part).toBe(200);
      expect(answer.headers.get('content-type')).toMatch(/^application\/xml/);
      const urls = locs(await answer.text());
      expect(urls.length, part).toBeLessThanOrEqual(PER_FILE);
      if (part.includes('/posts-')) posts.push(...urls);
      else expect(urls).toContain(`${ORIGIN}/blog`);
    }
    expect(posts).toEqual(published.map((slug) => `${ORIGIN}${blogPostPath(slug)}`));
    expect((await get('/sitemaps/posts-4.xml')).status).toBe(404);
    expect((await get('/sitemaps/posts-0.xml')).status).toBe(400);
  });

  it('a kept feed or sitemap reads no post, minutes later too: it is kept until a post changes (cost per request: a lookup)', async () => {
    const documents = ['/blog/rss.xml', '/sitemap.xml', '/sitemaps/pages.xml', '/sitemaps/posts-1.xml', '/sitemaps/posts-2.xml', '/sitemaps/posts-3.xml'];
    for (const path of documents) expect((await get(path)).status, path).toBe(200);
    const readsPosts = () => queries.filter((q) => /\bblog_(?:posts|categories|post_counts)\b/.test(q));
    queries.length = 0;
    // Five minutes on: a page would be past its minute of freshness.
    clockOffset = 5 * 60_000;
    try {
      for (let i = 0; i < 3; i++) for (const path of documents) expect((await get(path, { 'accept-encoding': 'gzip' })).status, path).toBe(200);
      // A document past its age is sent and made again in the background: give that time to show.
      await sleep(200);
    } finally {
      clockOffset = 0;
    }
    expect(readsPosts()).toEqual([]);
  });

  it('a newly published post is in the feed and the sitemap at once (the kept documents are dropped)', async () => {
    const before = await get('/blog/rss.xml');
    const etag = before.headers.get('etag')!;
    const slug = await publish(58);
    const after = await get('/blog/rss.xml', { 'if-none-match': etag });
    expect(after.status).toBe(200);
    expect(rssItems(await after.text())[0]).toBe(`${ORIGIN}${blogPostPath(slug)}`);
    expect(locs(await (await get('/sitemap.xml')).text())).toContain(`${ORIGIN}/sitemaps/posts-4.xml`);
    expect(locs(await (await get('/sitemaps/posts-4.xml')).text())).toEqual([`${ORIGIN}${blogPostPath(slug)}`]);
  });
});
