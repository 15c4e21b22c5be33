/**
 * The media library's pure rules (no zod): what an upload may be, which widths are stored, and how a media URL names
 * its variants. The API writes the files by these names and the blog renders `<picture>` from the URL alone, so the
 * two never need to agree through anything but this module.
 */

/** Largest upload, in bytes (10 MB). */
export const MEDIA_MAX_BYTES = 10 * 1024 * 1024;
/** Largest image, in pixels (width x height), decoded: more is refused as a possible decompression bomb. */
export const MEDIA_MAX_PIXELS = 50_000_000;
/**
 * Largest width or height of an upload, in pixels: the smallest limit of the formats every image is stored in (WebP
 * writes at most 16,383; AVIF/HEIF 16,384), read from the header before anything is decoded.
 */
export const MEDIA_MAX_SIDE = 16_383;
/** Most frames of an animated image (each is decoded and encoded again for every stored width and format). */
export const MEDIA_MAX_FRAMES = 1_000;
/** Widths stored for every image (never wider than the image itself). */
export const MEDIA_WIDTHS = [480, 960, 1600] as const;
/**
 * Tallest stored image: a taller one is scaled down to fit 1600 x 4800 (3:1), keeping its shape. What a page shows never
 * needs more, and the encoders' time and memory grow with the pixels.
 */
export const MEDIA_MAX_STORED_HEIGHT = 4_800;
/** The Open Graph variant: a JPEG cropped to this size. */
export const MEDIA_OG_SIZE = { width: 1200, height: 630 } as const;

/** Accepted formats: the file's sniffed type, its extensions and the format name of its variants. */
export const MEDIA_FORMATS = {
  jpeg: { mime: 'image/jpeg', extensions: ['jpg', 'jpeg'], ext: 'jpg' },
  png: { mime: 'image/png', extensions: ['png'], ext: 'png' },
  webp: { mime: 'image/webp', extensions: ['webp'], ext: 'webp' },
  avif: { mime: 'image/avif', extensions: ['avif'], ext: 'avif' },
  gif: { mime: 'image/gif', extensions: ['gif'], ext: 'gif' },
} as const;
export type MediaFormat = keyof typeof MEDIA_FORMATS;

export const MEDIA_ACCEPT = Object.values(MEDIA_FORMATS)
  .map((f) => f.mime)
  .join(',');

/** Content type of a stored variant by its extension. */
export const MEDIA_CONTENT_TYPES: Readonly<Record<string, string>> = { jpg: 'image/jpeg', png: 'image/png', webp: 'image/webp', avif: 'image/avif', gif: 'image/gif' };

/** Where media is served. */
export const MEDIA_PATH = '/media/';

/**
 * A media URL: `/media/<hash>-<width>x<height>.<ext>`, the largest stored variant in the upload's format (width and
 * height are that variant's). Its other variants are `/media/<hash>-<w>.<avif|webp|ext>` for each stored width, and the
 * Open Graph JPEG `/media/<hash>-og.jpg`.
 */
const MEDIA_URL = /^(?:https?:\/\/[^/]+)?\/media\/([0-9a-f]{24})-(\d{1,5})x(\d{1,5})\.(jpg|png|webp|avif|gif)$/;

export interface MediaUrlParts {
  hash: string;
  width: number;
  height: number;
  ext: string;
}

export function parseMediaUrl(url: string | undefined | null): MediaUrlParts | null {
  const m = url ? MEDIA_URL.exec(url) : null;
  if (!m) return null;
  return { hash: m[1]!, width: Number(m[2]), height: Number(m[3]), ext: m[4]! };
}

/** The widths stored for an image whose largest variant is `width` wide. */
export function mediaWidths(width: number): number[] {
  return [...MEDIA_WIDTHS.filter((w) => w < width), width];
}

/**
 * The formats stored at each width for an upload whose own format has extension `ext`: AVIF, WebP and its own; a GIF
 * gets WebP and GIF only, both animated when it is (an animated AVIF cannot be written, and a still AVIF first in the
 * `<picture>` would stop the animation).
 */
export function mediaVariantFormats(ext: string): string[] {
  return ext === 'gif' ? ['webp', 'gif'] : [...new Set(['avif', 'webp', ext])];
}

export const mediaFileName = (hash: string, width: number, ext: string) => `${hash}-${width}.${ext}`;
export const mediaUrl = (hash: string, width: number, height: number, ext: string) => `${MEDIA_PATH}${hash}-${width}x${height}.${ext}`;
export const mediaOgUrl = (hash: string) => `${MEDIA_PATH}${hash}-og.jpg`;

const MEDIA_OG_URL = /^\/media\/([0-9a-f]{24})-og\.jpg$/;

/**
 * The link-preview image (og:image) of an image address: an image of this site's media library (a site path
 * `/media/…`) is its 1200x630 Open Graph JPEG, with that size; any other address is itself, its size unknown.
 */
export function socialImageOf(url: string): { url: string; width?: number; height?: number } {
  const hash = MEDIA_OG_URL.exec(url)?.[1] ?? (url.startsWith(MEDIA_PATH) ? parseMediaUrl(url)?.hash : undefined);
  return hash ? { url: mediaOgUrl(hash), ...MEDIA_OG_SIZE } : { url };
}

/**
 * The `<picture>` of a media URL: AVIF and WebP `<source>`s, then the `<img>`'s own srcset in the upload's format,
 * with the intrinsic width and height (no layout shift). Null for any other image URL.
 */
export function mediaSources(url: string | undefined | null): {
  width: number;
  height: number;
  sources: Array<{ type: string; srcSet: string }>;
  srcSet: string;
  src: string;
} | null {
  const parts = parseMediaUrl(url);
  if (!parts) return null;
  const widths = mediaWidths(parts.width);
  const srcSet = (ext: string) => widths.map((w) => `${MEDIA_PATH}${mediaFileName(parts.hash, w, ext)} ${w}w`).join(', ');
  // AVIF first (smallest), then WebP; the upload's own format is the <img> fallback (WebP for an AVIF or WebP upload).
  const fallback = parts.ext === 'avif' || parts.ext === 'webp' ? 'webp' : parts.ext;
  const formats = mediaVariantFormats(parts.ext).filter((f) => f !== fallback);
  return {
    width: parts.width,
    height: parts.height,
    sources: formats.map((ext) => ({ type: MEDIA_CONTENT_TYPES[ext]!, srcSet: srcSet(ext) })),
    srcSet: srcSet(fallback),
    src: `${MEDIA_PATH}${mediaFileName(parts.hash, widths.at(-1)!, fallback)}`,
  };
}
