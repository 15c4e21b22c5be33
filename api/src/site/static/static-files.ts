import { createReadStream, type Stats } from 'node:fs';
import path from 'node:path';
import type { Context } from 'koa';
import { acceptedEncodings, isCompressible, type Encoding } from '../../lib/compression';
import { statShared, statSharedNow } from '../../lib/stat-shared';

export const NO_CACHE = 'no-cache';
export const IMMUTABLE = 'public, max-age=31536000, immutable';
export const SHORT_CACHE = 'public, max-age=3600';

/** Vite names hashed files `name-XXXXXXXX.ext` (8 url-safe base64 characters). */
const HASHED_NAME = /-([\w-]{8})\.[\da-z]+$/i;

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

/** Suffix of the copy the build writes next to a file for each encoding (packages/vite-config/precompress.ts). */
const PRECOMPRESSED_SUFFIX: Record<Encoding, string> = { br: '.br', gzip: '.gz' };

/**
 * `app.js.br`, `index.html.gz`: the build's encoded copy of another file, never a file of its own. Told by its name
 * alone, so a copy whose file is not there (yet, mid-copy, or any more) is not served either.
 */
const isPrecompressedName = (relative: string) => /\.(?:br|gz)$/i.test(relative);

async function isFile(stats: Promise<Stats | undefined>): Promise<Stats | undefined> {
  const info = await stats;
  return info?.isFile() ? info : undefined;
}

const fileStats = (file: string) => isFile(statShared(file));

/**
 * Answers GET/HEAD for one file below `root` with type (koa's mime-types lookup), length, validators and caching.
 * A text file is sent as the brotli or gzip copy the build wrote beside it (`app.js.br`, `app.js.gz`) when the
 * client accepts that encoding; without such a copy it is sent as it is. Nothing is compressed here.
 * Returns false (answering nothing) when the path is unsafe or no such file exists.
 */
export async function sendStaticFile(
  ctx: Context,
  root: string,
  urlPath: string,
  /**
   * `private`: for this browser alone (a preview's files): no shared cache may keep it. `lookAgain`: a file the last
   * check found missing is looked for again before answering nothing (see below); for folders whose misses are rare
   * (a release's assets), never for the shell's folder, which every page's path is first looked for in.
   */
  options: { exclude?: (relative: string) => boolean; private?: boolean; lookAgain?: boolean } = {},
): Promise<boolean> {
  const target = safeJoin(root, urlPath);
  if (!target || options.exclude?.(target.relative)) return false;
  // A precompressed copy goes out only for its file's own name, by Accept-Encoding: asked for by name
  // (`index.html.gz`) it would be a raw template or a body whose encoding no header announces.
  if (isPrecompressedName(target.relative)) return false;
  // With `lookAgain`, a file the last check found missing is looked for again before the 404: a build copied into the
  // folder by another process (a remote's `dist/` replaced in place) is served at once, not up to a second later.
  const original = (await fileStats(target.absolute)) ?? (options.lookAgain ? await isFile(statSharedNow(target.absolute)) : undefined);
  if (!original) return false;

  ctx.status = 200;
  ctx.type = path.extname(target.relative);
  if (!ctx.response.type) ctx.type = 'application/octet-stream';
  const rule = cacheControlOf(target.relative);
  ctx.set('Cache-Control', options.private ? `private, ${rule.replace(/^public,\s*/, '')}` : rule);

  let file = target.absolute;
  let info = original;
  let encoding: Encoding | undefined;
  if (isCompressible(ctx.response.type)) {
    ctx.vary('Accept-Encoding');
    for (const candidate of acceptedEncodings(ctx.get('Accept-Encoding'))) {
      const copy = await fileStats(target.absolute + PRECOMPRESSED_SUFFIX[candidate]);
      if (copy) {
        [file, info, encoding] = [target.absolute + PRECOMPRESSED_SUFFIX[candidate], copy, candidate];
        break;
      }
    }
  }
  if (encoding) ctx.set('Content-Encoding', encoding);
  ctx.set('Last-Modified', original.mtime.toUTCString());
  // One validator per representation, so a revalidated brotli copy is a 304 too.
  ctx.set('ETag', `W/"${original.size.toString(16)}-${Math.floor(original.mtimeMs).toString(16)}${encoding ? `-${encoding}` : ''}"`);
  if (ctx.fresh) {
    ctx.status = 304;
    return true;
  }
  ctx.length = info.size;
  if (ctx.method === 'HEAD') return true;
  ctx.body = createReadStream(file);
  return true;
}
