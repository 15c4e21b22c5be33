import { BLOG_FEED_PATH, BLOG_ROUTES, blogCategoryPath, blogPostPath } from '@site/contracts/blog-routes';
import type { PageMeta } from '@site/contracts/manifest';
import { MEDIA_PATH } from '@site/contracts/media-rules';
import { PLACEHOLDER_IMAGE, type PostSummary } from '@site/contracts/posts';

const XML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' };
/** Text safe in XML content and attributes; characters outside XML 1.0's `Char` production are dropped (surrogates pass: pairs are characters beyond U+FFFF). */
export const escapeXml = (text: string) =>
  text.replace(/[^\t\n\r\u0020-\ud7ff\ud800-\udfff\ue000-\ufffd]/g, '').replace(/[&<>"']/g, (c) => XML_ESCAPES[c]!);

const HTML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
/**
 * Plain text for a consumer that reads the element as HTML (an RSS `<description>`: every reader renders it so):
 * HTML-escaped first, then XML-escaped by the caller, so 'Callers hate <hold music>' arrives as those words, never markup.
 */
export const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => HTML_ESCAPES[c]!);

const absolute = (origin: string, pathOrUrl: string) => (/^https?:\/\//i.test(pathOrUrl) ? pathOrUrl : `${origin}${pathOrUrl}`);

/** A file the site serves, as served: its size in bytes and its Content-Type. */
export interface ServedFile {
  bytes: number;
  type: string;
}

/**
 * The image of an item: an `<enclosure>` (RSS 2.0 asks for its exact length and type) for an image the site serves and
 * knows the size of (a made file of the media library); none for a post without an image of its own (the placeholder
 * is not the post's); for any other image, whose size the feed cannot know without fetching it (it never does), a Media
 * RSS `<media:content>`, which names the image without a size.
 */
function itemImage(post: PostSummary, origin: string, files: ReadonlyMap<string, ServedFile>): string {
  const image = sitePathOf(post.featuredImage, origin);
  if (!image || image === PLACEHOLDER_IMAGE) return '';
  const url = escapeXml(absolute(origin, image));
  const file = files.get(image);
  if (file) return `      <enclosure url="${url}" length="${file.bytes}" type="${escapeXml(file.type)}" />`;
  // A media-library address whose file is not made yet (or failed) has no enclosure until it is (the feed is made again then).
  if (image.startsWith(MEDIA_PATH)) return '';
  return `      <media:content url="${url}" medium="image" />`;
}

/** An address on the public origin as the site path it is (how the media library names its files); others as they are. */
export const sitePathOf = (url: string, origin: string) => (url.startsWith(`${origin}/`) ? url.slice(origin.length) : url);

/**
 * RSS 2.0 feed of the published posts, newest first. Addresses come from the blog's URL scheme
 * (@site/contracts/blog-routes, the patterns of mfe-blog's route table), never written here. `files`: what the site
 * serves at the posts' image addresses it knows (the media library's rows), by address.
 */
export function renderRss(
  posts: readonly PostSummary[],
  options: { publicOrigin: string; title: string; description: string; files?: ReadonlyMap<string, ServedFile> },
): string {
  const { publicOrigin: origin } = options;
  const files = options.files ?? new Map<string, ServedFile>();
  const newest = posts[0]?.publishedAt ?? posts[0]?.updatedAt;
  const items = posts.map((p) => {
    const link = `${origin}${blogPostPath(p.slug)}`;
    const date = p.publishedAt ?? p.updatedAt;
    return [
      '    <item>',
      `      <title>${escapeXml(p.title)}</title>`,
      `      <link>${escapeXml(link)}</link>`,
      `      <guid isPermaLink="true">${escapeXml(link)}</guid>`,
      `      <pubDate>${new Date(date).toUTCString()}</pubDate>`,
      `      <dc:creator>${escapeXml(p.author)}</dc:creator>`,
      `      <category>${escapeXml(p.category)}</category>`,
      `      <description>${escapeXml(escapeHtml(p.excerpt))}</description>`,
      itemImage(p, origin, files),
      '    </item>',
    ]
      .filter((line) => line !== '')
      .join('\n');
  });
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<rss version="2.0" xmlns:atom="http://www.w3.org/2005/Atom" xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:media="http://search.yahoo.com/mrss/">',
    '  <channel>',
    `    <title>${escapeXml(options.title)}</title>`,
    `    <link>${escapeXml(`${origin}${BLOG_ROUTES.home}`)}</link>`,
    `    <description>${escapeXml(options.description)}</description>`,
    '    <language>en-us</language>',
    `    <atom:link href="${escapeXml(`${origin}${BLOG_FEED_PATH}`)}" rel="self" type="application/rss+xml" />`,
    newest ? `    <lastBuildDate>${new Date(newest).toUTCString()}</lastBuildDate>` : '',
    ...items,
    '  </channel>',
    '</rss>',
    '',
  ]
    .filter((line) => line !== '')
    .join('\n')
    .concat('\n');
}

export interface SitemapEntry {
  path: string;
  lastmod?: string;
}

/** The site's own pages in a sitemap: the remotes' static pages (indexable ones), the blog's index and its categories. */
export function pageEntries(pages: readonly PageMeta[], categorySlugs: readonly string[], blogLastmod: string | undefined): SitemapEntry[] {
  const out: SitemapEntry[] = [];
  for (const page of pages) if (!page.noindex) out.push({ path: page.canonical && page.canonical.startsWith('/') ? page.canonical : page.path });
  out.push({ path: BLOG_ROUTES.home, lastmod: blogLastmod });
  for (const slug of categorySlugs) out.push({ path: blogCategoryPath(slug) });
  return out;
}

/** The published posts' addresses (the blog's URL scheme, @site/contracts/blog-routes) with their last change. */
export function postEntries(posts: ReadonlyArray<{ slug: string; updatedAt: string }>): SitemapEntry[] {
  return posts.map((post) => ({ path: blogPostPath(post.slug), lastmod: post.updatedAt }));
}

/** One address once, the first time it comes (a canonical shared by two pages). */
export function uniqueEntries(entries: readonly SitemapEntry[]): SitemapEntry[] {
  const seen = new Set<string>();
  return entries.filter((entry) => !seen.has(entry.path) && Boolean(seen.add(entry.path)));
}

const lastmodOf = (lastmod: string | undefined) => (lastmod ? `<lastmod>${escapeXml(lastmod.slice(0, 10))}</lastmod>` : '');

export function renderSitemap(entries: readonly SitemapEntry[], publicOrigin: string): string {
  const urls = entries.map((e) => `  <url><loc>${escapeXml(absolute(publicOrigin, e.path))}</loc>${lastmodOf(e.lastmod)}</url>`);
  return ['<?xml version="1.0" encoding="UTF-8"?>', '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">', ...urls, '</urlset>', ''].join('\n');
}

/** A sitemap index (sitemaps.org): the parts, each with the date of its newest change. */
export function renderSitemapIndex(parts: readonly SitemapEntry[], publicOrigin: string): string {
  const items = parts.map((p) => `  <sitemap><loc>${escapeXml(absolute(publicOrigin, p.path))}</loc>${lastmodOf(p.lastmod)}</sitemap>`);
  return ['<?xml version="1.0" encoding="UTF-8"?>', '<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">', ...items, '</sitemapindex>', ''].join('\n');
}
