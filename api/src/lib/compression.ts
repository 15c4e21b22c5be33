import { brotliCompressSync, constants, createBrotliCompress, createGzip, gzipSync, type BrotliCompress, type Gzip } from 'node:zlib';

export type Encoding = 'br' | 'gzip';

/** Content types worth compressing (text, scripts, JSON, SVG, XML). */
export function isCompressible(contentType: string): boolean {
  return /^(?:text\/|application\/(?:javascript|json|manifest\+json|xml|rss\+xml|ld\+json)|image\/svg\+xml)/.test(contentType);
}

/** The encodings we offer that the client accepts, best first (brotli, then gzip). */
export function acceptedEncodings(acceptEncoding: string | undefined): Encoding[] {
  const accepted = (acceptEncoding ?? '')
    .split(',')
    .map((part) => part.trim().split(';'))
    .filter(([, q]) => !q || !/^q=0(?:\.0*)?$/.test(q.trim()))
    .map(([name]) => name!.toLowerCase());
  return (['br', 'gzip'] as const).filter((e) => accepted.includes(e));
}

/** The best encoding the client accepts: brotli, then gzip, else none. */
export function pickEncoding(acceptEncoding: string | undefined): Encoding | null {
  return acceptedEncodings(acceptEncoding)[0] ?? null;
}

/**
 * Compresses one in-memory answer at a quality cheap enough for every request. Built files are never compressed
 * here: the build writes their brotli/gzip copies (packages/vite-config/precompress.ts).
 */
export function compress(data: Buffer, encoding: Encoding): Buffer {
  if (encoding === 'gzip') return gzipSync(data, { level: 6 });
  return brotliCompressSync(data, {
    params: { [constants.BROTLI_PARAM_QUALITY]: 4, [constants.BROTLI_PARAM_SIZE_HINT]: data.length },
  });
}

/**
 * A compressing stream at the same qualities, for answers sent as they are made (flush it to send what it holds).
 * Small windows: a page is tens of kB, and one compressor lives per page waiting for its render, so under a crowd
 * hundreds exist at once and brotli's default 4 MB window adds up.
 */
export function compressorStream(encoding: Encoding): Gzip | BrotliCompress {
  if (encoding === 'gzip') return createGzip({ level: 6, windowBits: 15, memLevel: 8 });
  return createBrotliCompress({
    params: { [constants.BROTLI_PARAM_QUALITY]: 4, [constants.BROTLI_PARAM_LGWIN]: 17 },
  });
}
