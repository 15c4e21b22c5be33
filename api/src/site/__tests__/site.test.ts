import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PageMeta } from '@site/contracts/manifest';
import type { PageMetaResolver } from '../page-meta';
import { createSiteFixture, MANIFESTS, SECRET, type SiteFixture } from '../../test-support/site-fixture';
import { rawRequest, startTestServer, type TestServer } from '../../test-support/test-server';

/** The JSON the server inlined into the shell page. */
function inlinedRemotes(html: string): unknown {
  const match = /<script type="application\/json" id="remotes-manifest">([\s\S]*?)<\/script>/.exec(html);
  return match ? JSON.parse(match[1]!) : undefined;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
const json = async (response: Response): Promise<any> => response.json();

const headBlock = (html: string) => /<!--site-head-->([\s\S]*?)<!--\/site-head-->/.exec(html)?.[1] ?? '';

const blogPosts: PageMetaResolver = async (path) => {
  const slug = /^\/blog\/([^/]+)$/.exec(path)?.[1];
  if (!slug) return null;
  if (slug === 'known-post') {
    return { path, title: 'A known post', description: 'Read this', ogType: 'article' } satisfies PageMeta;
  }
  return 'not-found';
};

describe('site serving', () => {
  let site: SiteFixture;
  let server: TestServer;
  let url: string;

  beforeAll(async () => {
    site = await createSiteFixture();
    server = await startTestServer({ siteRoot: site.root, deps: { pageMetaResolvers: [blogPosts] } });
    url = server.url;
  });
  afterAll(async () => {
    await server.close();
    await site.cleanup();
  });

  describe('pages', () => {
    it('answers a declared page with 200 and its title, description, canonical and JSON-LD in the HTML', async () => {
      const response = await fetch(`${url}/`, { headers: { accept: 'text/html' } });
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(response.headers.get('cache-control')).toBe('no-cache');
      const html = await response.text();
      const head = headBlock(html);
      expect(head).toContain('<title>Home of &lt;Automation&gt; &amp; &quot;Co&quot;</title>');
      expect(head).not.toContain('Default shell title');
      expect(head).toContain('<meta name="description" content="We automate the boring parts &amp; more" />');
      expect(head).toContain('<link rel="canonical" href="https://example.test/" />');
      expect(head).toContain('<meta property="og:url" content="https://example.test/" />');
      expect(head).toContain('<meta property="og:type" content="website" />');
      expect(head).not.toContain('noindex');

      const ld = /<script type="application\/ld\+json">([\s\S]*?)<\/script>/.exec(head)?.[1] ?? '';
      expect(ld).not.toContain('</script>');
      expect(JSON.parse(ld)).toEqual(MANIFESTS.marketing.pages![0]!.jsonLd);
    });

    it('inlines the same remotes map that /remotes.json serves', async () => {
      const html = await (await fetch(`${url}/`)).text();
      const served = await json(await fetch(`${url}/remotes.json`));
      expect(inlinedRemotes(html)).toEqual(served);
      expect(Object.keys(served).sort()).toEqual(['admin', 'blog', 'marketing']);
    });

    it('uses the page canonical when it declares one', async () => {
      const html = await (await fetch(`${url}/roi-calculator`)).text();
      expect(html).toContain('<link rel="canonical" href="https://example.test/roi" />');
      expect(html).toContain('<title>ROI calculator</title>');
    });

    it('marks a noindex page for robots', async () => {
      const html = await (await fetch(`${url}/admin`)).text();
      expect(headBlock(html)).toContain('<meta name="robots" content="noindex" />');
    });

    it('answers a declared route without page metadata with 200 and the default head', async () => {
      const response = await fetch(`${url}/local-services/danville`);
      expect(response.status).toBe(200);
      const head = headBlock(await response.text());
      expect(head).toContain('<title>Default shell title</title>');
      expect(head).toContain('<link rel="canonical" href="https://example.test/local-services/danville" />');
    });

    it('answers an undeclared path with 404 and the shell page titled Page not found | Tri-Valley AI Automation', async () => {
      const response = await fetch(`${url}/no/such/page`, { headers: { accept: 'text/html,*/*' } });
      expect(response.status).toBe(404);
      expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
      const html = await response.text();
      expect(headBlock(html)).toContain('<title>Page not found | Tri-Valley AI Automation</title>');
      expect(html).toContain('<div id="root"></div>');
      expect(inlinedRemotes(html)).toHaveProperty('blog');
    });

    it('lets a PageMetaResolver answer a dynamic page or declare it missing', async () => {
      const known = await fetch(`${url}/blog/known-post`);
      expect(known.status).toBe(200);
      const knownHtml = await known.text();
      expect(knownHtml).toContain('<title>A known post</title>');
      expect(knownHtml).toContain('<meta property="og:type" content="article" />');

      const missing = await fetch(`${url}/blog/no-such-post`);
      expect(missing.status).toBe(404);
      expect(await missing.text()).toContain('<title>Page not found | Tri-Valley AI Automation</title>');
    });

    it('never serves the raw template', async () => {
      const response = await fetch(`${url}/index.html`);
      expect(response.status).toBe(404);
      expect(await response.text()).not.toContain('<!--remotes-json-->');
    });

    it('answers a client that does not want HTML with a short 404', async () => {
      const response = await fetch(`${url}/no/such/page`, { headers: { accept: 'application/json' } });
      expect(response.status).toBe(404);
      expect(response.headers.get('content-type')).toMatch(/^text\/plain/);
    });

    it('serves robots.txt', async () => {
      const response = await fetch(`${url}/robots.txt`);
      expect(response.status).toBe(200);
      const text = await response.text();
      expect(text).toContain('User-agent: *');
      expect(text).toContain('Disallow: /admin');
      expect(text).toContain('Sitemap: https://example.test/sitemap.xml');
    });
  });

  describe('static files', () => {
    it.each([
      ['/mfe/blog/assets/remoteEntry.js', 'no-cache', 'text/javascript; charset=utf-8'],
      ['/mfe/blog/mfe-manifest.json', 'no-cache', 'application/json; charset=utf-8'],
      ['/mfe/blog/assets/__federation_shared_@site/ui-CLqA2eVG.js', 'public, max-age=31536000, immutable', 'text/javascript; charset=utf-8'],
      ['/mfe/blog/assets/style-CFEB0EW0.css', 'public, max-age=31536000, immutable', 'text/css; charset=utf-8'],
      ['/mfe/blog/assets/fonts/inter.woff2', 'public, max-age=3600', 'font/woff2'],
      ['/assets/index-Ab12Cd34.js', 'public, max-age=31536000, immutable', 'text/javascript; charset=utf-8'],
      ['/favicon.svg', 'public, max-age=3600', 'image/svg+xml'],
      ['/remotes.json', 'no-cache', 'application/json; charset=utf-8'],
    ])('%s: Cache-Control %s', async (path, cacheControl, contentType) => {
      const response = await fetch(`${url}${path}`);
      expect(response.status).toBe(200);
      expect(response.headers.get('cache-control')).toBe(cacheControl);
      expect(response.headers.get('content-type')).toBe(contentType);
    });

    it('revalidates with ETag (304) and answers HEAD without a body', async () => {
      const first = await fetch(`${url}/mfe/blog/assets/remoteEntry.js`);
      const etag = first.headers.get('etag')!;
      expect(etag).toBeTruthy();
      expect(first.headers.get('last-modified')).toBeTruthy();
      // Raw request: fetch adds `Cache-Control: no-cache` to conditional requests, which forbids a 304.
      const again = await rawRequest(url, '/mfe/blog/assets/remoteEntry.js', { headers: { 'if-none-match': etag } });
      expect(again.status).toBe(304);
      expect(again.body).toBe('');

      const head = await rawRequest(url, '/mfe/blog/assets/remoteEntry.js', { method: 'HEAD' });
      expect(head.status).toBe(200);
      expect(head.headers['content-length']).toBe(String('export const name = "blog";'.length));
      expect(head.body).toBe('');
    });

    it('answers a missing asset with a plain 404, not the page', async () => {
      for (const path of ['/mfe/blog/assets/missing-AbCd1234.js', '/assets/missing-AbCd1234.js', '/mfe/nobody/assets/remoteEntry.js']) {
        const response = await fetch(`${url}${path}`);
        expect(response.status, path).toBe(404);
        expect(response.headers.get('content-type'), path).toMatch(/^text\/plain/);
      }
    });

    it.each([
      '/mfe/blog/../../secret.txt',
      '/mfe/blog/%2e%2e/%2e%2e/secret.txt',
      '/mfe/blog/..%2f..%2fsecret.txt',
      '/mfe/blog/assets/..%5c..%5c..%5csecret.txt',
      '/..%2fsecret.txt',
      '/%2e%2e/secret.txt',
      '/../shell/secret.txt',
      '/mfe/blog/.env',
      '/mfe/blog/%00.js',
    ])('refuses path traversal: %s', async (path) => {
      const response = await rawRequest(url, path);
      expect(response.status).toBeGreaterThanOrEqual(400);
      expect(response.body).not.toContain(SECRET);
    });

    it('answers 405 to a write on a site path', async () => {
      const response = await fetch(`${url}/blog`, { method: 'POST', body: 'x' });
      expect(response.status).toBe(405);
      expect(response.headers.get('allow')).toBe('GET, HEAD');
    });
  });

  describe('redeploying one remote', () => {
    it('shows a new manifest on the next request, without a restart', async () => {
      await site.writeManifest('blog', { ...MANIFESTS.blog, version: '2.0.0-redeployed', routes: ['/blog', '/blog/*'] });
      const remotes = await json(await fetch(`${url}/remotes.json`));
      expect(remotes.blog).toEqual({ entry: '/mfe/blog/assets/remoteEntry.js', version: '2.0.0-redeployed', routes: ['/blog', '/blog/*'] });
      const health = await json(await fetch(`${url}/api/health`));
      expect(health.remotes.blog).toEqual({ version: '2.0.0-redeployed' });
      // The new route pattern decides 200 vs 404 at once.
      expect((await fetch(`${url}/blog/2026/01/deep`)).status).toBe(200);
    });

    it('drops a remote whose dist disappears, and ignores an invalid manifest', async () => {
      await site.remove('mfe-admin/dist');
      await site.writeManifest('blog', { name: 'blog', version: '' });
      const remotes = await json(await fetch(`${url}/remotes.json`));
      expect(Object.keys(remotes)).toEqual(['marketing']);
      expect((await fetch(`${url}/admin`)).status).toBe(404);
    });
  });
});

describe('site with remotes hosted elsewhere', () => {
  let site: SiteFixture;
  let server: TestServer;
  beforeAll(async () => {
    site = await createSiteFixture();
    server = await startTestServer({
      siteRoot: site.root,
      env: { REMOTE_BLOG_URL: 'https://blog-cdn.example.com/v7/remoteEntry.js' },
    });
  });
  afterAll(async () => {
    await server.close();
    await site.cleanup();
  });

  it('points the remote entry at REMOTE_<NAME>_URL and allows its origin in the CSP', async () => {
    const response = await fetch(`${server.url}/remotes.json`);
    const remotes = await json(response);
    expect(remotes.blog.entry).toBe('https://blog-cdn.example.com/v7/remoteEntry.js');
    expect(remotes.marketing.entry).toBe('/mfe/marketing/assets/remoteEntry.js');
    const csp = response.headers.get('content-security-policy')!;
    const directive = (name: string) => csp.split('; ').find((d) => d.startsWith(`${name} `)) ?? '';
    expect(directive('script-src')).toContain('https://blog-cdn.example.com');
    expect(directive('connect-src')).toContain('https://blog-cdn.example.com');
    const html = await (await fetch(`${server.url}/blog`)).text();
    expect(html).toContain('https://blog-cdn.example.com/v7/remoteEntry.js');
  });
});

describe('site before the build', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.close());

  it('answers / with 503 and says how to build', async () => {
    const response = await fetch(`${server.url}/`);
    expect(response.status).toBe(503);
    expect(await response.text()).toContain('npm run build');
  });

  it('still serves the API and an empty remotes map', async () => {
    expect((await fetch(`${server.url}/api/health`)).status).toBe(200);
    expect(await (await fetch(`${server.url}/remotes.json`)).json()).toEqual({});
  });
});
