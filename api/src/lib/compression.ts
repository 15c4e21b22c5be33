import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

export type Encoding = 'br' | 'gzip';

/** Content types worth compressing (text, scripts, JSON, SVG, XML). */
export function isCompressible(contentType: string): boolean {
  return /^(text\/|application\/(javascript|json|manifest\+json|xml|rss\+xml|ld\+json)|image\/svg\+xml)/.test(contentType);
}

/** The best encoding the client accepts: brotli, then gzip, else none. */
export function pickEncoding(acceptEncoding: string | undefined): Encoding | null {
  const accepted = (acceptEncoding ?? '')
    .split(',')
    .map((part) => part.trim().split(';'))
    .filter(([, q]) => !q || !/^q=0(\.0*)?$/.test(q.trim()))
    .map(([name]) => name!.toLowerCase());
  if (accepted.includes('br')) return 'br';
  if (accepted.includes('gzip')) return 'gzip';
  return null;
}

/** `quality` trades CPU for size: high for static files compressed once, low for per-request answers. */
export function compress(data: Buffer, encoding: Encoding, quality: 'static' | 'dynamic'): Buffer {
  if (encoding === 'gzip') return gzipSync(data, { level: quality === 'static' ? 9 : 6 });
  return brotliCompressSync(data, {
    params: {
      [constants.BROTLI_PARAM_QUALITY]: quality === 'static' ? 10 : 4,
      [constants.BROTLI_PARAM_SIZE_HINT]: data.length,
    },
  });
}
