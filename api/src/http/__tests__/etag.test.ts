import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../test-support/test-server';

describe('ETags and 304 on reads', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.close());

  it.each(['/api/posts', '/api/categories', '/blog/rss.xml', '/sitemap.xml'])('%s: a strong ETag, 304 when the client has it, 200 with the body when not', async (path) => {
    const first = await fetch(`${server.url}${path}`, { headers: { 'accept-encoding': 'br' } });
    expect(first.status).toBe(200);
    const etag = first.headers.get('etag');
    expect(etag).toMatch(/^"[\w-]{32}"$/);
    const body = await first.text();
    // The same validator whatever the encoding: it names the content, not its compression.
    expect((await fetch(`${server.url}${path}`, { headers: { 'accept-encoding': 'identity' } })).headers.get('etag')).toBe(etag);

    const again = await fetch(`${server.url}${path}`, { headers: { 'if-none-match': etag! } });
    expect(again.status).toBe(304);
    expect(await again.text()).toBe('');
    const changed = await fetch(`${server.url}${path}`, { headers: { 'if-none-match': '"not-this-one"' } });
    expect(changed.status).toBe(200);
    expect(await changed.text()).toBe(body);
  });

  it('a post published changes the list’s ETag: the client gets the new list', async () => {
    const before = (await fetch(`${server.url}/api/posts`)).headers.get('etag')!;
    await server.instance.services.posts.create(
      {
        title: 'An ETag changes with the list',
        excerpt: 'A post that changes the list of posts.',
        content: `<p>${'The list of posts changes when a post is published. '.repeat(3)}</p>`,
        author: 'Tri-Valley AI Team',
        category: 'AI Automation',
        metaDescription: 'A post published to change the ETag of the list of posts in this test.',
        status: 'published',
      },
      { allowStatus: true },
    );
    const after = await fetch(`${server.url}/api/posts`, { headers: { 'if-none-match': before } });
    expect(after.status).toBe(200);
    expect(after.headers.get('etag')).not.toBe(before);
  });

  it('no ETag on answers that must not be kept (no-store) or that are errors', async () => {
    const missing = await fetch(`${server.url}/api/posts/no-such-post`);
    expect(missing.status).toBe(404);
    expect(missing.headers.get('etag')).toBeNull();
    const health = await fetch(`${server.url}/api/health`);
    expect(health.headers.get('cache-control')).toBe('no-store');
    expect(health.headers.get('etag')).toBeNull();
  });
});
