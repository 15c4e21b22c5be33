import http from 'node:http';
import { createBrotliDecompress, createGunzip } from 'node:zlib';
import { copyFile, mkdir, symlink } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';
import sharp from 'sharp';
import { mediaItemSchema } from '@site/contracts/media';
import { createLogger } from '../../../lib/logger';
import { ADMIN_ENV, adminCookie } from '../../../test-support/admin-session';
import { picture } from '../../../test-support/media-fixtures';
import { describeNeedingBuild, REPO_ROOT as REPO, serverEntriesMissing } from '../../../test-support/built-site';
import { createSiteFixture, MANIFESTS, type SiteFixture } from '../../../test-support/site-fixture';
import { SERVE_BUILDS_IN_PLACE, startTestServer, type TestServer } from '../../../test-support/test-server';

// Server-side composition (docs/deploying-a-remote.md): the raw HTML of every public page carries its content, head
// and data; a remote whose server entry is missing, throws or is slow leaves its area to the browser, status unchanged.

const missing = serverEntriesMissing();

/**
 * GET a page as a browser would, with node:http to see what fetch hides: the pieces as they arrive (decompressed
 * as they come when `encoding` is asked for) and the trailers, where the server's render time goes.
 */
function streamPage(base: string, pathname: string, encoding?: 'br' | 'gzip') {
  return new Promise<{ status: number; headers: http.IncomingHttpHeaders; pieces: string[]; html: string; timing?: string }>((resolve, reject) => {
    const headers: Record<string, string> = { accept: 'text/html' };
    if (encoding) headers['accept-encoding'] = encoding;
    const req = http.get(`${base}${pathname}`, { headers }, (res) => {
      const pieces: string[] = [];
      const raw = res.headers['content-encoding'];
      const decoded = raw === 'br' ? res.pipe(createBrotliDecompress()) : raw === 'gzip' ? res.pipe(createGunzip()) : res;
      decoded.setEncoding('utf8');
      decoded.on('data', (piece: string) => pieces.push(piece));
      decoded.on('error', reject);
      decoded.on('end', () => {
        const timing = res.trailers['server-timing'];
        resolve({ status: res.statusCode ?? 0, headers: res.headers, pieces, html: pieces.join(''), timing });
      });
    });
    req.on('error', reject);
  });
}

const fetchPage = (base: string, pathname: string) => streamPage(base, pathname);

/** The markup the server rendered into #root ('' when the page is rendered in the browser alone). */
const rootOf = (html: string) => /<div id="root" data-ssr="">([\s\S]*?)<\/div>\s*<script type="application\/json" id="__SITE_DATA__">/.exec(html)?.[1] ?? '';
const siteDataText = (html: string) => /<script type="application\/json" id="__SITE_DATA__">([\s\S]*?)<\/script>/.exec(html)?.[1];
/** Text of the rendered markup, tags removed and entities of the test strings decoded. */
const textOf = (markup: string) =>
  markup
    .replace(/<[^<>]+>/g, ' ')
    .replace(/&amp;/g, '&')
    .replace(/&#x27;|&#39;/g, "'")
    .replace(/&quot;/g, '"')
    .replace(/\s+/g, ' ');

describeNeedingBuild('server-rendered public pages (the built dists)', { missing }, () => {
  let server: TestServer;
  let reportPath = '';

  beforeAll(async () => {
    // The repository's own builds, served in place: the test writes nothing into the checkout.
    server = await startTestServer({ siteRoot: REPO, env: { ...SERVE_BUILDS_IN_PLACE, ...ADMIN_ENV } });
    const res = await fetch(`${server.url}/api/analyze-smb-business`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ businessName: 'Server Render Bakery', location: 'Danville, CA' }),
    });
    expect(res.status).toBe(200);
    reportPath = `/free-analysis/report/${((await res.json()) as { id: string }).id}`;
  }, 60_000);
  afterAll(() => server?.close());

  const ROUTES: Array<{ path: string | (() => string); h1: RegExp; text: RegExp; title: RegExp; jsonLd: boolean }> = [
    { path: '/', h1: /pays for itself/, text: /Free Consultation/, title: /Tri-Valley AI Automation/, jsonLd: true },
    { path: '/local-services/danville-ai-automation', h1: /Danville/, text: /Danville/, title: /Danville/, jsonLd: true },
    { path: '/case-studies/danville-restaurant-automation', h1: /Restaurant Automation Solution Design/, text: /restaurant/i, title: /Restaurant/, jsonLd: true },
    { path: '/case-studies/restaurant-automation', h1: /Restaurant Automation Case Study/, text: /restaurant/i, title: /Restaurant/, jsonLd: true },
    { path: '/restaurant-order-bot', h1: /Restaurant Order Bot/, text: /35%/, title: /Restaurant Order Bot/, jsonLd: true },
    { path: '/retail-customer-service', h1: /Retail Store Customer Service/, text: /80%/, title: /Retail Customer Service/, jsonLd: true },
    { path: '/service-business-automation', h1: /Service Business/i, text: /15 hours|hours/i, title: /Service Business Automation/, jsonLd: true },
    { path: '/roi-calculator', h1: /ROI Calculator/, text: /Calculate/, title: /ROI/, jsonLd: true },
    { path: '/local-services', h1: /Local AI Automation Services/, text: /Pleasanton/, title: /Local/, jsonLd: true },
    { path: '/blog', h1: /AI Automation Blog/, text: /How AI Chatbots Are Transforming Customer Service/, title: /AI Automation Blog/, jsonLd: true },
    {
      path: '/blog/how-ai-chatbots-are-transforming-customer-service-for-local-businesses',
      h1: /How AI Chatbots Are Transforming Customer Service for Local Businesses/,
      text: /Back to Blog/,
      title: /How AI Chatbots/,
      jsonLd: true,
    },
    { path: '/blog/category/ai-automation', h1: /AI Automation/, text: /Discover \d+ articles? about AI Automation/, title: /AI Automation \| AI Automation Blog/, jsonLd: true },
    { path: '/free-analysis', h1: /Free Business Growth Scorecard/, text: /business/i, title: /Scorecard|Analysis/i, jsonLd: true },
    { path: '/website-analysis', h1: /Free Website & Business Analysis/, text: /website/i, title: /Website/i, jsonLd: true },
    { path: () => reportPath, h1: /Server Render Bakery/, text: /Server Render Bakery/, title: /Server Render Bakery growth scorecard/, jsonLd: false },
  ];

  /** The case-study and project pages: articles about a client's project. */
  const ARTICLE_PAGES = ['/case-studies/restaurant-automation', '/restaurant-order-bot', '/retail-customer-service', '/service-business-automation'];

  for (const route of ROUTES) {
    it(`${typeof route.path === 'string' ? route.path : 'a shared report'}: the raw HTML has its h1, text, title, description, canonical${route.jsonLd ? ' and JSON-LD' : ''}`, async () => {
      const pathname = typeof route.path === 'string' ? route.path : route.path();
      const { status, html, timing } = await fetchPage(server.url, pathname);
      expect(status).toBe(200);
      const root = rootOf(html);
      const h1 = /<h1\b[^>]*>([\s\S]*?)<\/h1>/.exec(root)?.[1] ?? '';
      expect(textOf(h1)).toMatch(route.h1);
      expect(textOf(root)).toMatch(route.text);
      expect(/<title>([^<]+)<\/title>/.exec(html)?.[1]).toMatch(route.title);
      expect(html).toMatch(/<meta name="description" content="[^"]{20,}"/);
      expect(html).toContain(`<link rel="canonical" href="https://example.test${pathname}"`);
      if (route.jsonLd) {
        const block = /<script type="application\/ld\+json">([[{][\s\S]*?)<\/script>/.exec(html)?.[1];
        expect(block).toBeDefined();
        // Every URL in it is absolute, on the public origin.
        const urls = [...block!.matchAll(/"(?:url|@id|logo|mainEntityOfPage)":"([^"]*)"/g)].map((m) => m[1]);
        expect(urls.length).toBeGreaterThan(0);
        for (const url of urls) expect(url).toMatch(/^https:\/\/example\.test\//);
        // An Article (case studies, projects, posts) carries what Google's Article guidelines ask for: when and by whom.
        const data = JSON.parse(block!) as Record<string, unknown>;
        if (ARTICLE_PAGES.includes(pathname)) expect(data['@type'], pathname).toBe('Article');
        if (data['@type'] === 'Article' || data['@type'] === 'BlogPosting') {
          expect(data.datePublished, pathname).toMatch(/^\d{4}-\d{2}-\d{2}/);
          expect(data.author, pathname).toMatchObject({ name: expect.stringMatching(/\S/) });
          // Google lists `image` for Article rich results: absolute, on the public origin.
          expect(data.image, pathname).toEqual([expect.stringMatching(/^https:\/\/example\.test\//)]);
        }
      }
      // The header and footer come from the shell's server entry, in the same document.
      expect(root).toContain('Skip to content');
      expect(root).toContain('<footer');
      expect(timing).toMatch(/^ssr;dur=\d/);
    });
  }

  /** What a link preview reads of a page: og:image and the size its tags say. */
  const previewOf = (html: string) => ({
    image: /<meta property="og:image" content="([^"]+)" \/>/.exec(html)?.[1],
    width: Number(/<meta property="og:image:width" content="(\d+)" \/>/.exec(html)?.[1]),
    height: Number(/<meta property="og:image:height" content="(\d+)" \/>/.exec(html)?.[1]),
  });
  /** The served image of an absolute URL on the public origin, as sharp reads it. */
  const servedImage = async (url: string) => {
    const res = await fetch(`${server.url}${new URL(url).pathname}`);
    expect(res.status, url).toBe(200);
    return sharp(Buffer.from(await res.arrayBuffer())).metadata();
  };

  it("each case study's Article image is served, a JPEG of the size its link preview says", async () => {
    for (const pathname of ARTICLE_PAGES) {
      const { html } = await fetchPage(server.url, pathname);
      const data = JSON.parse(/<script type="application\/ld\+json">([[{][\s\S]*?)<\/script>/.exec(html)![1]!) as { image: string[] };
      const preview = previewOf(html);
      expect(preview.image, pathname).toBe(data.image[0]);
      const meta = await servedImage(preview.image!);
      expect({ format: meta.format, width: meta.width, height: meta.height }, pathname).toEqual({ format: 'jpeg', width: preview.width, height: preview.height });
    }
  });

  it("a post with only a featured image previews its Open Graph variant, as large as its tags say; the owner's alt text is the image's", async () => {
    const cookie = await adminCookie(server);
    const form = new FormData();
    form.set('file', new Blob([new Uint8Array(await picture(16, 16))], { type: 'image/png' }), 'icon.png');
    form.set('alt', 'A small green and red icon');
    const uploaded = await fetch(`${server.url}/api/admin/media`, { method: 'POST', headers: { origin: server.config.publicOrigin, cookie }, body: form });
    expect(uploaded.status).toBe(201);
    const media = mediaItemSchema.parse(await uploaded.json());
    await server.instance.services.media.processWaiting();
    const post = await server.instance.services.posts.create(
      {
        title: 'A post whose only image is a sixteen pixel icon',
        excerpt: 'A post with a featured image and no Open Graph image of its own.',
        content: `<p>${'An ordinary paragraph of the article body, long enough for the rules. '.repeat(3)}</p>`,
        author: 'Test',
        category: 'How-To Guides',
        metaDescription: 'A post whose link preview must not be the sixteen pixel upload itself.',
        keywords: [],
        featuredImage: media.url,
        status: 'published',
      },
      { allowStatus: true },
    );
    const page = await fetchPage(server.url, `/blog/${post.slug}`);
    const preview = previewOf(page.html);
    expect(preview.image).toBe(`https://example.test${media.ogUrl}`);
    const meta = await servedImage(preview.image!);
    expect([meta.width, meta.height]).toEqual([preview.width, preview.height]);
    expect([meta.width, meta.height]).toEqual([1200, 630]);
    /** The alt text of the rendered image of the media library (the post's; the newest card's on the list). */
    const imgAlt = (html: string) => {
      for (const tag of rootOf(html).match(/<img\b[^>]*>/g) ?? []) if (tag.includes(' src="/media/')) return /\balt="([^"]*)"/.exec(tag)?.[1];
      return undefined;
    };
    expect(imgAlt(page.html)).toBe('A small green and red icon');

    // The page and the blog's list are kept; a new alt text on the Media screen shows on both at once.
    expect((await fetchPage(server.url, `/blog/${post.slug}`)).headers['x-render-cache']).toBe('hit');
    await fetchPage(server.url, '/blog');
    expect(imgAlt((await fetchPage(server.url, '/blog')).html)).toBe('A small green and red icon');
    const changed = await fetch(`${server.url}/api/admin/media/${media.id}`, {
      method: 'PATCH',
      headers: { origin: server.config.publicOrigin, cookie, 'content-type': 'application/json' },
      body: JSON.stringify({ alt: 'The shop icon' }),
    });
    expect(changed.status).toBe(200);
    expect(imgAlt((await fetchPage(server.url, `/blog/${post.slug}`)).html)).toBe('The shop icon');
    expect(imgAlt((await fetchPage(server.url, '/blog')).html)).toBe('The shop icon');
  });

  it('embeds what the page was rendered with: the blog list first page, exactly as GET /api/posts answers it', async () => {
    const { html } = await fetchPage(server.url, '/blog');
    const site = JSON.parse(siteDataText(html)!) as { path: string; status: number; remote: string; source: string; data: { lists: Array<{ filter: unknown; list: unknown }> } };
    const api = await (await fetch(`${server.url}/api/posts`)).json();
    expect(site).toMatchObject({ path: '/blog', status: 200, remote: 'blog', source: 'post-list' });
    expect(site.data.lists).toEqual([{ filter: { q: '', category: '' }, list: api }]);
    // The remote's stylesheet is linked, so its markup paints styled before its code loads.
    expect(html).toMatch(/<link rel="stylesheet" href="\/mfe\/blog\/assets\/style-[\w-]+\.css" \/>/);
  });

  it('a post whose title holds </script> and U+2028 cannot break out of the embedded data', async () => {
    const title = 'Breaking </script><script>alert(1)</script> out\u2028of\u2029here';
    const post = await server.instance.services.posts.create(
      {
        title,
        excerpt: 'A title written to break out of a script element, for the escaping test.',
        content: `<p>${'An ordinary paragraph of the article body, long enough for the rules. '.repeat(3)}</p>`,
        author: 'Test',
        category: 'How-To Guides',
        metaDescription: 'A post whose title tries to close the script element that carries the page data.',
        keywords: [],
        status: 'published',
      },
      { allowStatus: true },
    );
    const { status, html } = await fetchPage(server.url, `/blog/${post.slug}`);
    expect(status).toBe(200);
    const embedded = siteDataText(html)!;
    expect(embedded).not.toMatch(/<\/script|\u2028|\u2029/i);
    expect(embedded).toContain('\\u003c/script>');
    expect((JSON.parse(embedded) as { data: { title: string } }).data.title).toBe(post.title);
    // Nothing but the page's own scripts: the theme script, the two JSON blocks, JSON-LD and the shell's module.
    expect(html.match(/<script\b/g)?.length).toBeLessThanOrEqual(5);
    expect(html).not.toContain('<script>alert(1)</script>');
  });

  it('an unknown URL answers 404 with the rendered not-found page', async () => {
    const { status, html } = await fetchPage(server.url, '/no-such-page-here');
    expect(status).toBe(404);
    expect(rootOf(html)).toContain('Oops! Page not found');
    expect(html).toContain('<meta name="robots" content="noindex" />');
    expect(JSON.parse(siteDataText(html)!)).toEqual({ path: '/no-such-page-here', status: 404, origin: server.config.publicOrigin });
  });

  it("an unknown slug or report id answers 404 with the remote's own not-found page, rendered", async () => {
    for (const [pathname, remote, heading] of [
      ['/blog/no-such-post-here', 'blog', 'Post Not Found'],
      ['/free-analysis/report/doesnotexist42', 'analysis', 'Report not found'],
    ] as const) {
      const { status, html } = await fetchPage(server.url, pathname);
      expect(status, pathname).toBe(404);
      expect(rootOf(html), pathname).toContain(`${heading}</h1>`);
      expect(JSON.parse(siteDataText(html)!)).toEqual({ path: pathname, status: 404, remote, origin: server.config.publicOrigin });
    }
  });

  it('a category without a published post (drafts only, or unknown) answers 404, noindex, with its not-found page rendered', async () => {
    for (let i = 1; i <= 2; i++) {
      await server.instance.services.posts.create({
        title: `A draft of the tests category ${i}`,
        excerpt: 'A draft nobody may read yet, in a category of drafts only.',
        content: `<p>${'An ordinary paragraph of the article body, long enough for the rules. '.repeat(3)}</p>`,
        author: 'Test',
        category: 'Tests',
        metaDescription: 'A draft in a category that has no published post, for the category not-found test.',
        keywords: [],
      });
    }
    for (const [pathname, name] of [
      ['/blog/category/tests', 'Tests'],
      ['/blog/category/no-such-thing', 'No Such Thing'],
    ] as const) {
      const { status, html } = await fetchPage(server.url, pathname);
      expect(status, pathname).toBe(404);
      expect(html, pathname).toMatch(/<meta name="robots" content="noindex[^"]*" \/>/);
      const root = rootOf(html);
      // The spec's category page, empty: the name in Title Case, 'No articles found in …', 'No posts in this category'.
      expect(textOf(/<h1\b[^>]*>([\s\S]*?)<\/h1>/.exec(root)?.[1] ?? ''), pathname).toBe(name);
      expect(textOf(root), pathname).toContain(`No articles found in ${name}`);
      expect(textOf(/<h2\b[^>]*>([\s\S]*?)<\/h2>/.exec(root)?.[1] ?? ''), pathname).toBe('No posts in this category');
      expect(root, pathname).toMatch(/<a [^>]*href="\/blog"[^>]*>[\s\S]*?Back to Blog<\/a>/);
      // Nothing of the drafts reaches the page, and the browser is told the same 404 (no data to hydrate a list with).
      expect(html, pathname).not.toContain('A draft of the tests category');
      expect(JSON.parse(siteDataText(html)!)).toEqual({ path: pathname, status: 404, remote: 'blog', origin: server.config.publicOrigin });
    }
  });

  it('the admin area stays rendered in the browser', async () => {
    const { status, html } = await fetchPage(server.url, '/admin');
    expect(status).toBe(200);
    expect(html).toContain('<div id="root"></div>');
    expect(html).not.toContain('id="__SITE_DATA__"');
  });

  it("serves neither the shell's nor a remote's server entry to browsers", async () => {
    expect((await fetch(`${server.url}/server/entry.js`)).status).toBe(404);
    expect((await fetch(`${server.url}/mfe/blog/server/entry.js`)).status).toBe(404);
  });
});

/** A remote's server entry as plain JS, with React from the site's node_modules (as the built ones import it). */
const blogEntry = (render: string) => `
import { createElement } from 'react';
export const routes = [{ path: '/blog' }, { path: '/blog/category/:category' }, { path: '/blog/:slug', data: { source: 'post', param: 'slug' } }];
export async function render(url, ctx) {
  ${render}
  return { element: createElement('div', { 'data-mfe': 'blog' }, createElement('h1', null, 'Fixture blog page')), status: 200 };
}
`;

describeNeedingBuild('a remote whose server entry fails (temp SITE_ROOT)', { missing }, () => {
  let site: SiteFixture;
  let server: TestServer;
  const lines: Array<{ level: number; msg: string; remote?: string }> = [];

  beforeAll(async () => {
    site = await createSiteFixture();
    // The built shell's server entry, and React where the server entries resolve it (as in a real SITE_ROOT).
    await mkdir(path.join(site.root, 'shell/dist/server'), { recursive: true });
    await copyFile(path.join(REPO, 'shell/dist/server/entry.js'), path.join(site.root, 'shell/dist/server/entry.js'));
    await symlink(path.join(REPO, 'shell/node_modules'), path.join(site.root, 'node_modules'), 'dir');
    await site.writeManifest('blog', { ...MANIFESTS.blog, server: { entry: 'server/entry.js' } });
    await site.writeFile('mfe-blog/dist/server/entry.js', blogEntry(''));
    const logger = createLogger({ level: 'warn', destination: { write: (line: string) => void lines.push(JSON.parse(line)) } });
    server = await startTestServer({ siteRoot: site.root, deps: { logger }, env: { ...SERVE_BUILDS_IN_PLACE, SSR_TIMEOUT_MS: '150' } });
  }, 30_000);
  afterAll(async () => {
    await server?.close();
    await site?.cleanup();
  });

  const deploy = async (version: string, source: string | null) => {
    await site.remove('mfe-blog/dist/server/entry.js');
    if (source !== null) await site.writeFile('mfe-blog/dist/server/entry.js', source);
    await site.writeManifest('blog', { ...MANIFESTS.blog, version, server: { entry: 'server/entry.js' } });
  };

  // Every test starts from a working entry of a version of its own, whatever the test before it deployed.
  let deploys = 0;
  beforeEach(() => deploy(`1.0.${++deploys}-working`, blogEntry('')));

  /** The page, with the shell's chrome rendered and the blog's area left to the browser. */
  async function expectShellWithAreaInBrowser(reason: RegExp) {
    lines.length = 0;
    const started = performance.now();
    const { status, html } = await fetchPage(server.url, '/blog');
    expect(status).toBe(200);
    expect(performance.now() - started).toBeLessThan(1500);
    const root = rootOf(html);
    expect(root).toContain('Skip to content');
    expect(root).toContain('<footer');
    expect(root).not.toContain('Fixture blog page');
    // React's marker of a boundary the browser renders, holding the area's loading state.
    expect(root).toMatch(/<!--\$!-->[\s\S]*?role="status"/);
    expect(lines.some((l) => l.level === 40 && reason.test(l.msg))).toBe(true);
    // The head is the page's own, written once.
    expect(html.match(/<title>/g)).toHaveLength(1);
    expect(html).toContain('<title>The blog</title>');
  }

  it('renders the remote on the server when its entry works', async () => {
    const { status, html } = await fetchPage(server.url, '/blog');
    expect(status).toBe(200);
    expect(rootOf(html)).toContain('<h1>Fixture blog page</h1>');
  });

  it('a server entry that throws: 200, the shell, the area rendered in the browser, logged at warn', async () => {
    await deploy('2.0.0-throws', blogEntry("throw new Error('boom in render');"));
    await expectShellWithAreaInBrowser(/server render failed/);
  });

  it('a server entry slower than SSR_TIMEOUT_MS: the page does not wait for it', async () => {
    await deploy('2.0.0-slow', blogEntry('await new Promise((resolve) => setTimeout(resolve, 2000));'));
    await expectShellWithAreaInBrowser(/server render failed/);
  });

  it('a missing server entry: the same', async () => {
    await site.writeManifest('blog', { ...MANIFESTS.blog, version: '2.0.0-missing', server: { entry: 'server/missing.js' } });
    await expectShellWithAreaInBrowser(/no server entry loaded|server render failed/);
  });

  it('streams the page: the head goes out before the render ends, the rest after it, compressed as it goes', async () => {
    for (const encoding of [undefined, 'br', 'gzip'] as const) {
      // A render that takes 100 ms (within the 150 ms budget): the head cannot wait for it. A release of its own for
      // each encoding: the first visitor after a deploy, whose page is rendered (the next ones get it kept whole).
      await deploy(`2.1.0-steady-${encoding ?? 'identity'}`, blogEntry('await new Promise((resolve) => setTimeout(resolve, 100));'));
      const { status, headers, pieces, html, timing } = await streamPage(server.url, '/blog', encoding);
      expect(status).toBe(200);
      expect(headers['content-encoding']).toBe(encoding);
      expect(headers['transfer-encoding']).toBe('chunked');
      expect(pieces.length).toBeGreaterThan(1);
      // The first piece is the head: the page's title and stylesheets, not yet its body.
      expect(pieces[0]).toContain('<title>The blog</title>');
      expect(pieces[0]).not.toContain('</head>');
      expect(pieces[0]).not.toContain('<div id="root"');
      expect(rootOf(html)).toContain('<h1>Fixture blog page</h1>');
      expect(html.match(/<\/head>/g)).toHaveLength(1);
      expect(html.trimEnd().endsWith('</html>')).toBe(true);
      // The render time comes after the body, as a trailer.
      expect(headers.trailer).toMatch(/server-timing/i);
      expect(Number(/^ssr;dur=([\d.]+)$/.exec(timing ?? '')?.[1])).toBeGreaterThanOrEqual(95);
    }
  });

  it('a deployed working entry renders on the server again, with no restart', async () => {
    await deploy('2.9.0-throws', blogEntry("throw new Error('boom in render');"));
    await expectShellWithAreaInBrowser(/server render failed/);
    await deploy('3.0.0', blogEntry(''));
    const { html } = await fetchPage(server.url, '/blog');
    expect(rootOf(html)).toContain('<h1>Fixture blog page</h1>');
  });
});
