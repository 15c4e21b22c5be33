import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Post } from '@site/contracts/posts';
import { createLogger } from '../../lib/logger';
import {
  ANALYSIS_MANIFEST,
  ANALYSIS_SERVER_MODULE,
  blogServerModule,
  createSiteFixture,
  MANIFESTS,
  SECRET,
  type SiteFixture,
} from '../../test-support/site-fixture';
import { rawRequest, SERVE_BUILDS_IN_PLACE, startTestServer, type TestServer } from '../../test-support/test-server';

/** The JSON the server inlined into the shell page. */
function inlinedRemotes(html: string): unknown {
  const match = /<script type="application\/json" id="remotes-manifest">([\s\S]*?)<\/script>/.exec(html);
  return match ? JSON.parse(match[1]!) : undefined;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
const json = async (response: Response): Promise<any> => response.json();

const headBlock = (html: string) => /<!--site-head-->([\s\S]*?)<!--\/site-head-->/.exec(html)?.[1] ?? '';

const jsonLdOf = (html: string) => JSON.parse(/<script type="application\/ld\+json">([\s\S]*?)<\/script>/.exec(html)?.[1] ?? 'null');
const NOT_FOUND_TITLE = '<title>Page not found | Tri-Valley AI Automation</title>';

const POST = {
  title: 'Chatbots for <Danville> dentists',
  excerpt: 'How a two-chair practice answers patients after hours.',
  content: `<p>${'A small practice can answer the common questions of its patients at any hour. '.repeat(3)}</p>`,
  author: 'Tri-Valley AI Team',
  category: 'Case Studies',
  metaDescription: 'A Danville dental practice answers patient questions at night with a small chatbot.',
  keywords: ['dentist', 'chatbot'],
  ogImage: 'https://cdn.example.com/og/dentist.png',
  status: 'published',
};

/** Pino lines a test server wrote. */
function captureLogs() {
  const lines: Array<{ level: number; msg: string; remote?: string }> = [];
  const logger = createLogger({ level: 'info', destination: { write: (line: string) => void lines.push(JSON.parse(line)) } });
  return { logger, lines };
}

describe('site serving', () => {
  let site: SiteFixture;
  let server: TestServer;
  let url: string;
  let post: Post;
  const logs = captureLogs();

  // Several tests redeploy or remove files of the site: each test gets a site, a server and a published post of its own.
  beforeEach(async () => {
    logs.lines.length = 0;
    site = await createSiteFixture();
    server = await startTestServer({ siteRoot: site.root, env: SERVE_BUILDS_IN_PLACE, deps: { logger: logs.logger } });
    url = server.url;
    post = await server.instance.services.posts.create(POST, { allowStatus: true });
  });
  afterEach(async () => {
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

    it('matches static pages as the router does: any case, trailing slashes; the canonical names the page', async () => {
      const response = await fetch(`${url}/ROI-Calculator//`);
      expect(response.status).toBe(200);
      const head = headBlock(await response.text());
      expect(head).toContain('<title>ROI calculator</title>');
      expect(head).toContain('<link rel="canonical" href="https://example.test/roi" />');
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

  describe('dynamic pages (route table data + head from the remote server module)', () => {
    it("renders a post page's head from the blog's own head(): title, description, canonical, og and JSON-LD", async () => {
      const response = await fetch(`${url}/blog/${post.slug}`);
      expect(response.status).toBe(200);
      const head = headBlock(await response.text());
      expect(head).toContain('<title>Chatbots for &lt;Danville&gt; dentists | Tri-Valley AI Automation</title>');
      expect(head).toContain(`<meta name="description" content="${POST.metaDescription}" />`);
      expect(head).toContain(`<link rel="canonical" href="https://example.test/blog/${post.slug}" />`);
      expect(head).toContain('<meta property="og:type" content="article" />');
      expect(head).toContain('<meta property="og:image" content="https://cdn.example.com/og/dentist.png" />');
      // Site paths in the JSON-LD come out absolute; `<` cannot open a tag inside the script.
      expect(head).not.toContain('<Danville>');
      expect(jsonLdOf(head)).toEqual({
        '@context': 'https://schema.org',
        '@type': 'Article',
        headline: POST.title,
        image: ['https://cdn.example.com/og/dentist.png'],
        mainEntityOfPage: { '@type': 'WebPage', '@id': `https://example.test/blog/${post.slug}` },
      });
    });

    it('answers an unknown or unpublished slug with 404 and the not-found page', async () => {
      const draft = await server.instance.services.posts.create({ ...POST, title: 'A draft nobody may see yet', status: 'draft' }, { allowStatus: true });
      for (const path of ['/blog/no-such-post', `/blog/${draft.slug}`, '/blog/%E0%A4%A']) {
        const response = await fetch(`${url}${path}`);
        expect(response.status, path).toBe(404);
        expect(headBlock(await response.text()), path).toContain(NOT_FOUND_TITLE);
      }
    });

    it('leaves a declared route without head() to the default head', async () => {
      const response = await fetch(`${url}/blog/category/case-studies`);
      expect(response.status).toBe(200);
      expect(headBlock(await response.text())).toContain('<title>Default shell title</title>');
    });

    it('serves a redeployed server module on the next request, and keeps the last good one when a new one is broken', async () => {
      await site.writeFile('mfe-blog/dist/server/routes.js', blogServerModule(' (redeployed)'));
      const redeployed = await (await fetch(`${url}/blog/${post.slug}`)).text();
      expect(headBlock(redeployed)).toContain('<title>Chatbots for &lt;Danville&gt; dentists (redeployed)</title>');

      await site.writeFile('mfe-blog/dist/server/routes.js', 'export const routes = [ this is not javascript');
      const broken = await fetch(`${url}/blog/${post.slug}`);
      expect(broken.status).toBe(200);
      expect(headBlock(await broken.text())).toContain('<title>Chatbots for &lt;Danville&gt; dentists (redeployed)</title>');
      expect(logs.lines.some((l) => l.level >= 50 && l.remote === 'blog' && /keeping the last one/.test(l.msg))).toBe(true);
      // The last good module still tells unknown slugs apart.
      expect((await fetch(`${url}/blog/no-such-post`)).status).toBe(404);

      await site.writeFile('mfe-blog/dist/server/routes.js', blogServerModule());
      expect(headBlock(await (await fetch(`${url}/blog/${post.slug}`)).text())).toContain('dentists | Tri-Valley AI Automation</title>');
    });

    it('keeps the last module when the file goes missing, and falls back to the default head (200) when head() throws', async () => {
      // The server has served the post with the blog's module once.
      expect(headBlock(await (await fetch(`${url}/blog/${post.slug}`)).text())).toContain('dentists | Tri-Valley AI Automation</title>');
      await site.remove('mfe-blog/dist/server');
      expect(headBlock(await (await fetch(`${url}/blog/${post.slug}`)).text())).toContain('dentists | Tri-Valley AI Automation</title>');
      expect(logs.lines.some((l) => l.remote === 'blog' && /server module that is missing/.test(l.msg))).toBe(true);

      await site.writeFile(
        'mfe-blog/dist/server/routes.js',
        "export const routes = [{ path: '/blog/:slug', data: { source: 'post', param: 'slug' }, head: () => { throw new Error('bad head'); } }];",
      );
      const response = await fetch(`${url}/blog/${post.slug}`);
      expect(response.status).toBe(200);
      expect(headBlock(await response.text())).toContain('<title>Default shell title</title>');
      expect(logs.lines.some((l) => l.level >= 50 && /head\(\) failed/.test(l.msg))).toBe(true);
      await site.writeFile('mfe-blog/dist/server/routes.js', blogServerModule());
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
      for (const path of ['/mfe/blog/assets/missing-AbCd1234.js', '/assets/missing-AbCd1234.js', '/mfe/nobody/assets/remoteEntry.js', '/mfe/blog/server/routes.js']) {
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
      expect(remotes.blog).toEqual({ entry: '/mfe/blog/assets/remoteEntry.js', version: '2.0.0-redeployed', routes: ['/blog', '/blog/*'], owns: ['/blog*'] });
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

describe('site: a dynamic page on the stored analysis report (data source analysis-report)', () => {
  let site: SiteFixture;
  let server: TestServer;
  beforeAll(async () => {
    site = await createSiteFixture();
    await site.writeManifest('analysis', ANALYSIS_MANIFEST);
    await site.writeFile('mfe-analysis/dist/server/routes.js', ANALYSIS_SERVER_MODULE);
    server = await startTestServer({ siteRoot: site.root, env: SERVE_BUILDS_IN_PLACE });
  });
  afterAll(async () => {
    await server.close();
    await site.cleanup();
  });

  it("renders a stored report's head (noindex); an unknown or malformed id is a 404", async () => {
    const report = await server.instance.services.analysis.analyzeSmb({ businessName: 'Danville Family Dental', location: 'Danville, CA' });
    const response = await fetch(`${server.url}/free-analysis/report/${report.id}`);
    expect(response.status).toBe(200);
    const head = headBlock(await response.text());
    expect(head).toContain('<title>Analysis of Danville Family Dental</title>');
    expect(head).toContain(`<meta name="description" content="Analyzed at ${report.analyzedAt}" />`);
    expect(head).toContain('<meta name="robots" content="noindex" />');
    expect(head).toContain(`<link rel="canonical" href="https://example.test/free-analysis/report/${report.id}" />`);

    for (const id of ['AAAAAAAAAAAAAAAAAAAAAAAA', 'short', 'not%20an%20id', '..%2F..%2Fetc']) {
      const missing = await fetch(`${server.url}/free-analysis/report/${id}`);
      expect(missing.status, id).toBe(404);
      expect(headBlock(await missing.text()), id).toContain(NOT_FOUND_TITLE);
    }
  });
});

describe('site with remotes hosted elsewhere', () => {
  let site: SiteFixture;
  let server: TestServer;
  beforeAll(async () => {
    site = await createSiteFixture();
    server = await startTestServer({
      siteRoot: site.root,
      env: {
        ...SERVE_BUILDS_IN_PLACE, REMOTE_BLOG_URL: 'https://blog-cdn.example.com/v7/remoteEntry.js' },
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
