import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { blogPostPath } from '@site/contracts/blog-routes';
import { mediaItemSchema, type MediaItem } from '@site/contracts/media';
import { postListSchema, postSchema } from '@site/contracts/posts';
import { ADMIN_ENV, adminCookie } from '../../test-support/admin-session';
import { testBackends, uniqueSchema } from '../../test-support/databases';
import { picture } from '../../test-support/media-fixtures';
import { call, TEST_ORIGIN } from '../../test-support/site-client';
import { startTestServer, type TestServer } from '../../test-support/test-server';

/*
 * Issue 35: a post's image as feeds and readers get it. The RSS enclosure says the exact length and type its address is
 * served with (from the media library's rows: the feed fetches nothing), and the alt text the owner writes on the Media
 * screen is the image's on the public posts.
 */
describe.each(testBackends().map((b) => b.name))('images of posts in the feed and the public API (%s)', (backend) => {
  let server: TestServer;
  let cookie: string;
  const schema = uniqueSchema();
  /** A site of another host (on loopback): it counts the requests it gets. */
  let elsewhere: Server;
  let elsewhereHits = 0;

  beforeAll(async () => {
    server = await startTestServer({
      env: { ...ADMIN_ENV, PUBLIC_ORIGIN: TEST_ORIGIN, ...(backend === 'postgres' ? { DATABASE_URL: process.env.TEST_DATABASE_URL } : {}) },
      deps: backend === 'postgres' ? { database: { pgSchema: schema } } : {},
    });
    cookie = await adminCookie(server);
    elsewhere = createServer((_req, res) => {
      elsewhereHits += 1;
      res.writeHead(200, { 'content-type': 'image/png' }).end('not fetched by the feed');
    });
    await new Promise<void>((resolve) => elsewhere.listen(0, '127.0.0.1', resolve));
  });
  afterAll(async () => {
    await new Promise((resolve) => elsewhere?.close(resolve));
    await server?.close();
  });

  /** An image through the Media screen's upload, its variants made. */
  async function uploaded(width: number, height: number, alt: string): Promise<MediaItem> {
    const form = new FormData();
    form.set('file', new Blob([new Uint8Array(await picture(width, height))], { type: 'image/png' }), `picture-${width}x${height}.png`);
    form.set('alt', alt);
    const res = await fetch(`${server.url}/api/admin/media`, { method: 'POST', headers: { origin: TEST_ORIGIN, cookie }, body: form });
    expect(res.status).toBe(201);
    await server.instance.services.media.processWaiting();
    const media = mediaItemSchema.parse((await call(server.url, `/api/admin/media/${mediaItemSchema.parse(await res.json()).id}`, { cookie })).json);
    expect(media.state).toBe('ready');
    return media;
  }

  let n = 0;
  async function publish(featuredImage?: string): Promise<string> {
    n += 1;
    const post = await server.instance.services.posts.create(
      {
        title: `A post with an image, number ${n}`,
        excerpt: 'An excerpt long enough for the rules of the blog.',
        content: `<p>${'Words of a post that is long enough to be stored. '.repeat(4)}</p>`,
        author: 'Admin',
        category: 'AI Automation',
        metaDescription: 'A meta description that is long enough for the rules of the blog posts.',
        keywords: [],
        status: 'published',
        ...(featuredImage ? { featuredImage } : {}),
      },
      { allowStatus: true },
    );
    return post.slug;
  }

  /** The feed's item of a post, as text. */
  async function feedItem(slug: string): Promise<string> {
    const xml = await (await fetch(`${server.url}/blog/rss.xml`)).text();
    const item = [...xml.matchAll(/<item>[\s\S]*?<\/item>/g)].map((m) => m[0]).find((i) => i.includes(`<link>${TEST_ORIGIN}${blogPostPath(slug)}</link>`));
    expect(item, slug).toBeDefined();
    return item!;
  }

  it('an enclosure says the exact length and type its address is served with', async () => {
    const media = await uploaded(16, 16, 'A small logo');
    const slug = await publish(media.url);
    const enclosure = /<enclosure url="([^"]+)" length="(\d+)" type="([^"]+)" \/>/.exec(await feedItem(slug));
    expect(enclosure).not.toBeNull();
    const [, url, length, type] = enclosure!;
    expect(url).toBe(`${TEST_ORIGIN}${media.url}`);
    const served = await fetch(`${server.url}${new URL(url!).pathname}`);
    expect(served.status).toBe(200);
    const bytes = Buffer.from(await served.arrayBuffer());
    expect(bytes.length).toBeGreaterThan(0);
    expect(Number(length)).toBe(bytes.length);
    expect(type).toBe(served.headers.get('content-type'));
  });

  it('a post without an image of its own has no enclosure; an image of another site is named without a size, never fetched', async () => {
    const plain = await publish();
    const elsewhereImage = `http://127.0.0.1:${(elsewhere.address() as AddressInfo).port}/photo.jpg`;
    const remote = await publish(elsewhereImage);
    const hitsBefore = elsewhereHits;
    // The feed made now, with both posts in it.
    expect(await feedItem(plain)).not.toMatch(/<enclosure|<media:content/);
    const item = await feedItem(remote);
    expect(item).not.toContain('<enclosure');
    expect(item).toContain(`<media:content url="${elsewhereImage}" medium="image" />`);
    // The feed was made and answered: it asked the other site nothing.
    expect(elsewhereHits).toBe(hitsBefore);
  });

  it("a post carries its image's alt text from the Media screen, in its own answer and in the list; a change shows at once", async () => {
    const media = await uploaded(40, 30, 'Two people at a front desk with a tablet');
    const slug = await publish(media.url);
    const alts = async () => {
      const post = postSchema.parse((await call(server.url, `/api/posts/${slug}`)).json);
      const listed = postListSchema.parse((await call(server.url, '/api/posts?limit=50')).json).posts.find((p) => p.slug === slug);
      return [post.featuredImageAlt, listed?.featuredImageAlt];
    };
    expect(await alts()).toEqual(['Two people at a front desk with a tablet', 'Two people at a front desk with a tablet']);

    const changed = await call(server.url, `/api/admin/media/${media.id}`, { method: 'PATCH', cookie, body: { alt: 'A salon front desk at opening time' } });
    expect(changed.status).toBe(200);
    expect(await alts()).toEqual(['A salon front desk at opening time', 'A salon front desk at opening time']);

    // No alt text: the field is absent (the page falls back to the title; a card's image is decoration).
    expect((await call(server.url, `/api/admin/media/${media.id}`, { method: 'PATCH', cookie, body: { alt: '' } })).status).toBe(200);
    expect(await alts()).toEqual([undefined, undefined]);
  });
});
