import { createReadStream } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import type { Context } from 'koa';
import { compress, isCompressible, pickEncoding, type Encoding } from '../lib/compression';

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.webmanifest': 'application/manifest+json; charset=utf-8',
  '.xml': 'application/xml; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.avif': 'image/avif',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.woff': 'font/woff',
  '.ttf': 'font/ttf',
  '.otf': 'font/otf',
  '.wasm': 'application/wasm',
  '.pdf': 'application/pdf',
};

export const NO_CACHE = 'no-cache';
export const IMMUTABLE = 'public, max-age=31536000, immutable';
export const SHORT_CACHE = 'public, max-age=3600';

export function contentTypeOf(fileName: string): string {
  return CONTENT_TYPES[path.extname(fileName).toLowerCase()] ?? 'application/octet-stream';
}

/** Vite names hashed files `name-XXXXXXXX.ext` (8 url-safe base64 characters). */
const HASHED_NAME = /-([A-Za-z0-9_-]{8})\.[A-Za-z0-9]+$/;

/**
 * Caching rule of one served file (path relative to its dist): entry points that name other files
 * are revalidated every time, content-hashed assets are cached forever, the rest for an hour.
 */
export function cacheControlOf(relativePath: string): string {
  const segments = relativePath.split('/');
  const name = segments[segments.length - 1] ?? '';
  if (name === 'remoteEntry.js' || name === 'mfe-manifest.json' || /\.html?$/i.test(name)) return NO_CACHE;
  const hash = HASHED_NAME.exec(name)?.[1];
  // A real hash mixes cases or digits; a word like "-document" must not be cached forever.
  if (segments.slice(0, -1).includes('assets') && hash && /[A-Z0-9]/.test(hash)) return IMMUTABLE;
  return SHORT_CACHE;
}

/**
 * Turns the URL path below a mount point into a path inside `root`, or null when it is unsafe:
 * bad percent-encoding, NUL bytes, backslashes, `..`, or dot-files (except `.well-known`).
 */
export function safeJoin(root: string, urlPath: string): { absolute: string; relative: string } | null {
  let decoded: string;
  try {
    decoded = decodeURIComponent(urlPath);
  } catch {
    return null;
  }
  if (decoded.includes('\0') || decoded.includes('\\')) return null;
  const segments = decoded.split('/').filter((s) => s !== '');
  if (segments.length === 0) return null;
  for (const segment of segments) {
    if (segment === '..' || segment === '.') return null;
    if (segment.startsWith('.') && segment !== '.well-known') return null;
  }
  const relative = segments.join('/');
  const absolute = path.resolve(root, relative);
  if (!absolute.startsWith(path.resolve(root) + path.sep)) return null;
  return { absolute, relative };
}

/**
 * Answers GET/HEAD for one file below `root` with type, length, validators and caching.
 * Returns false (answering nothing) when the path is unsafe or no such file exists.
 */
export async function sendStaticFile(
  ctx: Context,
  root: string,
  urlPath: string,
  options: { exclude?: (relative: string) => boolean } = {},
): Promise<boolean> {
  const target = safeJoin(root, urlPath);
  if (!target || options.exclude?.(target.relative)) return false;
  let info;
  try {
    info = await stat(target.absolute);
  } catch {
    return false;
  }
  if (!info.isFile()) return false;

  ctx.status = 200;
  ctx.type = contentTypeOf(target.relative);
  ctx.set('Cache-Control', cacheControlOf(target.relative));
  ctx.set('Last-Modified', info.mtime.toUTCString());
  ctx.set('ETag', `W/"${info.size.toString(16)}-${Math.floor(info.mtimeMs).toString(16)}"`);
  if (ctx.fresh) {
    ctx.status = 304;
    return true;
  }
  const encoding = isCompressible(ctx.response.type) && info.size >= 1024 ? pickEncoding(ctx.get('Accept-Encoding')) : null;
  ctx.vary('Accept-Encoding');
  if (encoding && info.size <= MAX_COMPRESSED_FILE) {
    const data = await compressedCopy(target.absolute, info.mtimeMs, encoding);
    ctx.set('Content-Encoding', encoding);
    ctx.set('ETag', `W/"${info.size.toString(16)}-${Math.floor(info.mtimeMs).toString(16)}-${encoding}"`);
    ctx.length = data.length;
    if (ctx.method !== 'HEAD') ctx.body = data;
    return true;
  }
  ctx.length = info.size;
  if (ctx.method === 'HEAD') return true;
  ctx.body = createReadStream(target.absolute);
  return true;
}

/** Larger files are streamed as they are rather than held compressed in memory. */
const MAX_COMPRESSED_FILE = 8 * 1024 * 1024;
const compressedCache = new Map<string, Buffer>();
const COMPRESSED_CACHE_LIMIT = 400;

/**
 * Each built file is compressed once (at high quality) per version on disk and encoding, then served
 * from memory: a redeployed file has a new mtime and so a new cache entry.
 */
async function compressedCopy(file: string, mtimeMs: number, encoding: Encoding): Promise<Buffer> {
  const key = `${encoding}:${mtimeMs}:${file}`;
  const hit = compressedCache.get(key);
  if (hit) return hit;
  const data = compress(await readFile(file), encoding, 'static');
  if (compressedCache.size >= COMPRESSED_CACHE_LIMIT) compressedCache.delete(compressedCache.keys().next().value!);
  compressedCache.set(key, data);
  return data;
}
