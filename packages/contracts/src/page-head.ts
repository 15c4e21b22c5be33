import type { PageMeta } from './manifest';

/**
 * What a page says about itself in the document head. A page has its full `PageMeta`; a state without a page of its
 * own (not found, a report that does not exist) has a title and, usually, `noindex`.
 */
export type PageHead = Pick<PageMeta, 'title'> & Partial<Omit<PageMeta, 'title'>>;

/** One `<meta>` of the head: `name="description"` or `property="og:title"`. */
export interface HeadMetaTag {
  attr: 'name' | 'property';
  key: string;
  content: string;
}

/** Every tag a page's head consists of, all URLs absolute: what the server writes and the browser keeps in step. */
export interface HeadTags {
  title: string;
  meta: HeadMetaTag[];
  canonical?: string;
  jsonLd?: unknown;
}

/** The `<meta>` tags the head owns: any of them a page does not name is removed on client navigation. */
export const HEAD_META_KEYS: ReadonlyArray<Pick<HeadMetaTag, 'attr' | 'key'>> = [
  { attr: 'name', key: 'description' },
  { attr: 'name', key: 'keywords' },
  { attr: 'name', key: 'robots' },
  { attr: 'name', key: 'twitter:card' },
  { attr: 'property', key: 'og:title' },
  { attr: 'property', key: 'og:description' },
  { attr: 'property', key: 'og:url' },
  { attr: 'property', key: 'og:type' },
  { attr: 'property', key: 'og:image' },
  { attr: 'property', key: 'og:image:width' },
  { attr: 'property', key: 'og:image:height' },
];

/** Absolute URL on the site: `pathOrUrl` may be absolute already, or a site path. */
export function absoluteUrl(origin: string, pathOrUrl: string): string {
  if (/^https?:\/\//i.test(pathOrUrl)) return pathOrUrl;
  return `${origin}${pathOrUrl.startsWith('/') ? '' : '/'}${pathOrUrl}`;
}

const URL_KEYS = new Set(['url', '@id', 'image', 'logo', 'sameAs', 'mainEntityOfPage']);

/**
 * Structured data is written by remotes that do not know the public origin: site paths in URL-valued fields
 * (`"url": "/local-services/..."`) become absolute, as search engines require.
 */
export function absolutizeJsonLd(value: unknown, origin: string, key = ''): unknown {
  if (typeof value === 'string') return URL_KEYS.has(key) && value.startsWith('/') && !value.startsWith('//') ? absoluteUrl(origin, value) : value;
  if (Array.isArray(value)) return value.map((v) => absolutizeJsonLd(v, origin, key));
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, absolutizeJsonLd(v, origin, k)]));
  return value;
}

/** The link-preview image's width and height as the tags say them: both or neither. */
export function imageSize(width: number | undefined, height: number | undefined): [string, string] | undefined {
  return width && height ? [String(width), String(height)] : undefined;
}

/**
 * The head of a page as tags, with every URL made absolute against `origin` (the server's PUBLIC_ORIGIN, which the
 * browser reads back from the page: `siteOrigin()` in @site/ui). A full page (description and path) gets its
 * canonical link and Open Graph tags.
 */
export function headTags(head: PageHead, origin: string): HeadTags {
  const meta: HeadMetaTag[] = [];
  const add = (attr: HeadMetaTag['attr'], key: string, content: string | undefined) => {
    if (content) meta.push({ attr, key, content });
  };
  const pathOrUrl = head.canonical ?? head.path;
  const url = pathOrUrl === undefined ? undefined : absoluteUrl(origin, pathOrUrl);
  const page = head.description !== undefined && url !== undefined;
  add('name', 'description', head.description);
  add('name', 'keywords', head.keywords?.length ? head.keywords.join(', ') : undefined);
  if (page) {
    add('property', 'og:title', head.title);
    add('property', 'og:description', head.description);
    add('property', 'og:url', url);
    add('property', 'og:type', head.ogType ?? 'website');
    if (head.image) {
      add('property', 'og:image', absoluteUrl(origin, head.image));
      const size = imageSize(head.imageWidth, head.imageHeight);
      add('property', 'og:image:width', size?.[0]);
      add('property', 'og:image:height', size?.[1]);
      add('name', 'twitter:card', 'summary_large_image');
    }
  }
  if (head.noindex) add('name', 'robots', 'noindex');
  return {
    title: head.title,
    meta,
    ...(url === undefined ? {} : { canonical: url }),
    ...(head.jsonLd === undefined ? {} : { jsonLd: absolutizeJsonLd(head.jsonLd, origin) }),
  };
}
