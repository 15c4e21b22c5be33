import type { PageMeta, RemotesMap } from '@site/contracts/manifest';
import { absoluteUrl, absolutizeJsonLd, imageSize } from '@site/contracts/page-head';

const HEAD_BLOCK = /<!--site-head-->[\s\S]*?<!--\/site-head-->/;
const REMOTES_PLACEHOLDER = '<!--remotes-json-->';

import { SITE_DATA_ELEMENT_ID } from '@site/contracts/server-render';
import { NOT_FOUND_TITLE, SITE_ORIGIN_ATTRIBUTE } from '@site/contracts/site';

export { NOT_FOUND_TITLE };

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
export const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => ESCAPES[c]!);

/** JSON safe inside a <script> element: `<` can never close it or open a comment. */
export const jsonForScript = (value: unknown) =>
  JSON.stringify(value).replace(/</g, '\\u003c').replace(/\u2028/g, '\\u2028').replace(/\u2029/g, '\\u2029');

// One spelling of absolute URLs and structured data for the server's HTML and the browser's head manager
// (`usePageHead` in @site/ui), so the head a page hydrates with is the head it would write itself.
export { absolutizeJsonLd };
const canonicalUrl = absoluteUrl;

export type HeadContent =
  | { kind: 'page'; meta: PageMeta }
  | { kind: 'default'; path: string }
  | { kind: 'not-found' };

/** The tags that go between `<!--site-head-->` and `<!--/site-head-->`. */
export function renderHead(content: HeadContent, options: { publicOrigin: string; defaultHead: string }): string {
  if (content.kind === 'not-found') {
    return `<title>${escapeHtml(NOT_FOUND_TITLE)}</title>\n    <meta name="robots" content="noindex" />`;
  }
  if (content.kind === 'default') {
    // A declared route without its own metadata keeps the shell's default title.
    const url = canonicalUrl(options.publicOrigin, content.path);
    return `${options.defaultHead.trim()}\n    <link rel="canonical" href="${escapeHtml(url)}" />`;
  }
  const { meta } = content;
  const url = canonicalUrl(options.publicOrigin, meta.canonical ?? meta.path);
  const size = meta.image ? imageSize(meta.imageWidth, meta.imageHeight) : undefined;
  const tags = [
    `<title>${escapeHtml(meta.title)}</title>`,
    `<meta name="description" content="${escapeHtml(meta.description)}" />`,
    meta.keywords?.length ? `<meta name="keywords" content="${escapeHtml(meta.keywords.join(', '))}" />` : '',
    `<link rel="canonical" href="${escapeHtml(url)}" />`,
    `<meta property="og:title" content="${escapeHtml(meta.title)}" />`,
    `<meta property="og:description" content="${escapeHtml(meta.description)}" />`,
    `<meta property="og:url" content="${escapeHtml(url)}" />`,
    `<meta property="og:type" content="${escapeHtml(meta.ogType ?? 'website')}" />`,
    meta.image ? `<meta property="og:image" content="${escapeHtml(canonicalUrl(options.publicOrigin, meta.image))}" />` : '',
    size ? `<meta property="og:image:width" content="${size[0]}" />` : '',
    size ? `<meta property="og:image:height" content="${size[1]}" />` : '',
    meta.image ? `<meta name="twitter:card" content="summary_large_image" />` : '',
    meta.noindex ? `<meta name="robots" content="noindex" />` : '',
    meta.jsonLd ? `<script type="application/ld+json">${jsonForScript(absolutizeJsonLd(meta.jsonLd, options.publicOrigin))}</script>` : '',
  ];
  return tags.filter(Boolean).join('\n    ');
}

/** A server-rendered body: the markup of #root, what it embeds for hydration, and what its head needs. */
export interface RenderedBody {
  html: string;
  /** Tags for the head that React hoisted out of the body (resource hints). */
  headTags?: string;
  /** Embedded once as `<script type="application/json" id="__SITE_DATA__">` (escaped: nothing breaks out). */
  site: unknown;
}

const ROOT_ELEMENT = /<div id="root"><\/div>/;
/**
 * The first paint waits until the page's markup is parsed (`rel="expect"`, render-blocking; a browser that does not
 * know it ignores it, and one whose page has no such element, #root rendered in the browser, paints when the
 * document is parsed). Without it Chrome may paint as soon as its parser yields inside #root (the header alone), then
 * style and lay out the rest of the screen in one long task right after that paint. With it, that work is part of the
 * first paint (docs/decisions.md, "The first paint waits for the page's markup").
 */
// Its element is the one written right after a server-rendered #root (`finish` below): when the browser has parsed it,
// the page's markup is all there.
const EXPECT_MARKUP = `<link rel="expect" href="#${SITE_DATA_ELEMENT_ID}" blocking="render" />`;
const NOSCRIPT = /(?<!\s)\s*<noscript>[\s\S]*?<\/noscript>/i;

/** What the head needs before the page has rendered: its tags, the remotes map, stylesheets and early preloads. */
export interface DocumentStartOptions {
  head: HeadContent;
  remotes: Partial<RemotesMap>;
  publicOrigin: string;
  /** `modulepreload` links (a page rendered in the browser alone wants its remote's code at once). */
  preload?: string[];
  /** Stylesheets of the remote expected to render the page, so its markup paints styled before its code loads. */
  styles?: string[];
  /** A staged release this browser previews (issue 34): the page says so at its top, and is not indexed. */
  preview?: { app: string; version: string };
  /** A development override this browser has on (issue 52): the page says so at its top, and is not indexed. */
  devOverride?: { app: string; origin: string };
}

/** The query a page's address gets to leave a preview (site/render/preview.ts answers it). */
const LEAVE_PREVIEW_HREF = '?preview=off';

/**
 * The banner of a preview, first in <body> and outside #root, so hydration and the shell's navigation leave it alone:
 * it stays on every page of the visit. Its colours are its own (the same in light and dark, 14:1 contrast).
 */
export function previewBanner(preview: { app: string; version: string }): string {
  return (
    `<aside id="release-preview" aria-label="Release preview" style="background:#1e293b;color:#fff;padding:8px 16px;font:14px/1.5 system-ui,sans-serif;text-align:center">` +
    `Previewing <strong>${escapeHtml(preview.app)} ${escapeHtml(preview.version)}</strong>, a staged release: only this browser sees it. ` +
    `<a href="${LEAVE_PREVIEW_HREF}" style="color:#fff;font-weight:600;text-decoration:underline">Leave the preview</a></aside>`
  );
}

/** The query a page's address gets to leave a development override (site/render/dev-override.ts answers it). */
const LEAVE_DEV_OVERRIDE_HREF = '?dev-override=off';

/** The banner of a development override, placed and coloured as the preview's (previewBanner). */
export function devOverrideBanner(dev: { app: string; origin: string }): string {
  return (
    `<aside id="dev-override" aria-label="Development override" style="background:#7c2d12;color:#fff;padding:8px 16px;font:14px/1.5 system-ui,sans-serif;text-align:center">` +
    `Development override: <strong>${escapeHtml(dev.app)}</strong> from <strong>${escapeHtml(dev.origin)}</strong>, rendered in this browser only. ` +
    `<a href="${LEAVE_DEV_OVERRIDE_HREF}" style="color:#fff;font-weight:600;text-decoration:underline">Leave</a></aside>`
  );
}

/**
 * The shell's index.html for one page, in two parts, so the head goes out before the page has rendered:
 * `start` is everything before `</head>` (the browser starts on the stylesheets while the server renders), and
 * `finish(body)` the rest: tags only the render knows (React's hoisted preloads, a late modulepreload), `</head>`,
 * and the body with the rendered #root, or the empty #root the browser renders into.
 */
export function renderShellDocument(
  template: string,
  options: DocumentStartOptions,
): { start: string; finish(body?: RenderedBody, late?: { preload?: string[] }): string } {
  const defaultHead = HEAD_BLOCK.exec(template)?.[0].slice('<!--site-head-->'.length, -'<!--/site-head-->'.length) ?? '';
  const head = renderHead(options.head, { publicOrigin: options.publicOrigin, defaultHead });
  const noindex = (options.preview || options.devOverride) && !head.includes('name="robots"') ? `\n    <meta name="robots" content="noindex" />` : '';
  const block = `<!--site-head-->\n    ${EXPECT_MARKUP}\n    ${head}${noindex}${modulePreloads(options.preload)}${stylesheets(options.styles)}\n    <!--/site-head-->`;
  // Replacer functions, so `$` in titles or JSON is never read as a replacement pattern.
  let html = HEAD_BLOCK.test(template)
    ? template.replace(HEAD_BLOCK, () => block)
    : template.replace(/<\/head>/i, () => `${block}\n  </head>`);
  html = html.replace(REMOTES_PLACEHOLDER, () => jsonForScript(options.remotes));
  // The site's origin for the browser's canonical link and og:url (siteOrigin() in @site/ui), whatever host this was asked by.
  html = html.replace(/<html\b/i, (tag) => `${tag} ${SITE_ORIGIN_ATTRIBUTE}="${escapeHtml(options.publicOrigin)}"`);
  const banners = [options.preview && previewBanner(options.preview), options.devOverride && devOverrideBanner(options.devOverride)].filter(Boolean);
  if (banners.length > 0) html = html.replace(/<body\b[^>]*>/i, (tag) => `${tag}\n    ${banners.join('\n    ')}`);
  const headEnd = html.search(/<\/head>/i);
  const [start, rest] = headEnd < 0 ? ['', html] : [html.slice(0, headEnd), html.slice(headEnd)];
  return {
    start,
    finish(body, late) {
      const lateHead = `${modulePreloads(late?.preload)}${body?.headTags ? `\n    ${body.headTags}` : ''}`;
      let end = headEnd < 0 ? rest : `${lateHead.trimStart()}${lateHead ? '\n  ' : ''}${rest}`;
      if (body && ROOT_ELEMENT.test(end)) {
        // `data-ssr` tells the shell to hydrate; the page has its content, so the no-JavaScript notice goes.
        end = end
          .replace(NOSCRIPT, '')
          .replace(
            ROOT_ELEMENT,
            () => `<div id="root" data-ssr="">${body.html}</div>\n    <script type="application/json" id="${SITE_DATA_ELEMENT_ID}">${jsonForScript(body.site)}</script>`,
          );
      }
      return end;
    },
  };
}

const modulePreloads = (hrefs: string[] | undefined) =>
  (hrefs ?? []).map((href) => `\n    <link rel="modulepreload" href="${escapeHtml(href)}" crossorigin />`).join('');
const stylesheets = (hrefs: string[] | undefined) => (hrefs ?? []).map((href) => `\n    <link rel="stylesheet" href="${escapeHtml(href)}" />`).join('');

/** The whole document at once (see renderShellDocument). */
export function renderShellPage(template: string, options: DocumentStartOptions & { body?: RenderedBody }): string {
  // A server-rendered page preloads its remote's entry from the shell's loader, after the first paint
  // (packages/vite-config/after-paint.ts); a page rendered in the browser alone wants it at once.
  const document = renderShellDocument(template, { ...options, preload: options.body ? [] : options.preload });
  return document.start + document.finish(options.body);
}
