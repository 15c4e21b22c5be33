import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { inlineScriptHashes } from '../shell-document';
import type { PageMeta } from '@site/contracts/manifest';
import { headTags } from '@site/contracts/page-head';
import { absolutizeJsonLd, jsonForScript, renderHead, renderShellDocument, renderShellPage } from '../document-html';
import { cacheControlOf } from '../../static/static-files';

describe('inlineScriptHashes', () => {
  it('hashes executable inline scripts only', () => {
    const html = `
      <script>a()</script>
      <script type="module">b()</script>
      <script src="/x.js"></script>
      <script type="application/json" id="remotes-manifest">{}</script>
      <script type="application/ld+json">{}</script>`;
    const hash = (body: string) => `'sha256-${createHash('sha256').update(body).digest('base64')}'`;
    expect(inlineScriptHashes(html)).toEqual([hash('a()'), hash('b()')]);
  });
});

describe('renderShellPage', () => {
  it('escapes `<` in inlined JSON and keeps `$` literal', () => {
    const html = renderShellPage('<head><!--site-head--><title>x</title><!--/site-head--></head><script type="application/json"><!--remotes-json--></script>', {
      head: { kind: 'page', meta: { path: '/', title: 'Save $& more', description: 'd' } },
      remotes: { blog: { entry: '</script><script>alert(1)</script>', version: '1', routes: ['/blog'] } },
      publicOrigin: 'https://example.test',
    });
    expect(html).toContain('<title>Save $&amp; more</title>');
    expect(html).not.toContain('</script><script>alert');
    expect(jsonForScript({ a: '<!--' })).toBe('{"a":"\\u003c!--"}');
  });
});

describe('the link-preview image', () => {
  const head = (meta: Partial<PageMeta>) =>
    renderHead({ kind: 'page', meta: { path: '/p', title: 'T', description: 'D', ...meta } }, { publicOrigin: 'https://site.test', defaultHead: '' });
  const browser = (meta: Partial<PageMeta>) => headTags({ path: '/p', title: 'T', description: 'D', ...meta }, 'https://site.test').meta;

  it('says its size (og:image:width, og:image:height) when the page knows it, as the browser head manager does', () => {
    const meta = { image: '/media/0123456789abcdef01234567-og.jpg', imageWidth: 1200, imageHeight: 630 };
    expect(head(meta)).toContain(
      '<meta property="og:image" content="https://site.test/media/0123456789abcdef01234567-og.jpg" />\n    <meta property="og:image:width" content="1200" />\n    <meta property="og:image:height" content="630" />',
    );
    expect(browser(meta)).toEqual(
      expect.arrayContaining([
        { attr: 'property', key: 'og:image:width', content: '1200' },
        { attr: 'property', key: 'og:image:height', content: '630' },
      ]),
    );
  });

  it('says no size it does not know (an image of another site), and none without an image', () => {
    for (const meta of [{ image: 'https://cdn.example/x.png' }, { imageWidth: 1200, imageHeight: 630 }, { image: '/a.jpg', imageWidth: 1200 }]) {
      expect(head(meta)).not.toContain('og:image:');
      expect(browser(meta).map((m) => m.key)).not.toContain('og:image:width');
    }
  });
});

describe('cacheControlOf', () => {
  it.each([
    ['assets/remoteEntry.js', 'no-cache'],
    ['mfe-manifest.json', 'no-cache'],
    ['index.html', 'no-cache'],
    ['assets/index-BUW9V29z.js', 'public, max-age=31536000, immutable'],
    ['assets/__federation_expose_App-CjCky_td.js', 'public, max-age=31536000, immutable'],
    ['assets/__federation_shared_@site/ui-CLqA2eVG.js', 'public, max-age=31536000, immutable'],
    ['assets/my-document.js', 'public, max-age=3600'],
    ['index-BUW9V29z.js', 'public, max-age=3600'],
    ['favicon.svg', 'public, max-age=3600'],
  ])('%s -> %s', (file, expected) => {
    expect(cacheControlOf(file)).toBe(expected);
  });
});

describe('absolutizeJsonLd', () => {
  it('turns site paths in URL fields into absolute URLs and leaves everything else alone', () => {
    const out = absolutizeJsonLd(
      { '@type': 'LocalBusiness', url: '/local-services/x', name: '/not-a-url', provider: { url: '/' }, image: ['/a.png', 'https://cdn/b.png'], sameAs: '//cdn/x' },
      'https://site.test',
    );
    expect(out).toEqual({
      '@type': 'LocalBusiness',
      url: 'https://site.test/local-services/x',
      name: '/not-a-url',
      provider: { url: 'https://site.test/' },
      image: ['https://site.test/a.png', 'https://cdn/b.png'],
      sameAs: '//cdn/x',
    });
  });
});

describe('remote preloading', () => {
  it('adds a modulepreload link for the remote that renders the page', () => {
    const html = renderShellPage('<html><head><!--site-head--><title>x</title><!--/site-head--></head></html>', {
      head: { kind: 'default', path: '/blog' },
      remotes: {},
      publicOrigin: 'https://site.test',
      preload: ['/mfe/blog/assets/remoteEntry.js'],
    });
    expect(html).toContain('<link rel="modulepreload" href="/mfe/blog/assets/remoteEntry.js" crossorigin />');
  });
});

describe('renderShellDocument', () => {
  const template = '<html><head><!--site-head--><title>x</title><!--/site-head--></head><body><div id="root"></div><noscript>no js</noscript></body></html>';
  const base = { head: { kind: 'default', path: '/blog' } as const, remotes: {}, publicOrigin: 'https://site.test' };

  it('the start is the head without its end; what only the render knows still lands in the head', () => {
    const document = renderShellDocument(template, { ...base, styles: ['/mfe/blog/style-1.css'] });
    expect(document.start).toContain('<link rel="stylesheet" href="/mfe/blog/style-1.css" />');
    expect(document.start).not.toContain('</head>');
    const end = document.finish({ html: '<h1>Blog</h1>', headTags: '<link rel="preload" as="image" href="/a.png"/>', site: { path: '/blog' } });
    const html = document.start + end;
    expect(html.indexOf('<link rel="preload" as="image" href="/a.png"/>')).toBeLessThan(html.indexOf('</head>'));
    expect(html).toContain('<div id="root" data-ssr=""><h1>Blog</h1></div>');
    expect(html).not.toContain('<noscript>');
  });

  it("holds the first paint until the page's markup is parsed: the head expects the element right after #root", () => {
    const document = renderShellDocument(template, { ...base, styles: ['/mfe/blog/style-1.css'] });
    const html = document.start + document.finish({ html: '<h1>Blog</h1>', site: { path: '/blog' } });
    const expectLink = /<link rel="expect" href="#([^"]+)" blocking="render" \/>/.exec(document.start);
    expect(expectLink, 'a render-blocking expect link in the head the server sends first').not.toBeNull();
    // Before the stylesheets and anything else that could let the browser paint.
    expect(document.start.indexOf(expectLink![0])).toBeLessThan(document.start.indexOf('<link rel="stylesheet"'));
    // The element it names comes right after the rendered #root, so the whole of #root is parsed before the first paint.
    expect(html).toContain(`<div id="root" data-ssr=""><h1>Blog</h1></div>\n    <script type="application/json" id="${expectLink![1]}">`);
  });

  it("names the site's origin on <html>, for the browser's canonical link and og:url (issue 54, item 2)", () => {
    const document = renderShellDocument(`<!doctype html>\n<html lang="en">${template.slice('<html>'.length)}`, { ...base, publicOrigin: 'https://www.site.test' });
    expect(document.start).toMatch(/^<!doctype html>\n<html data-site-origin="https:\/\/www\.site\.test" lang="en"><head>/);
  });

  it('a page the server could not render gets its remote preloaded late, in the head, and the empty #root', () => {
    const document = renderShellDocument(template, base);
    const html = document.start + document.finish(undefined, { preload: ['/mfe/blog/assets/remoteEntry.js'] });
    expect(html.indexOf('<link rel="modulepreload" href="/mfe/blog/assets/remoteEntry.js" crossorigin />')).toBeLessThan(html.indexOf('</head>'));
    expect(html).toContain('<div id="root"></div><noscript>no js</noscript>');
  });
});
