import type { Middleware } from 'koa';
import { compress as compressBuffer, isCompressible, pickEncoding } from '../lib/compression';

/**
 * Compresses in-memory answers (JSON, rendered HTML, feeds) above `threshold` bytes. Streams are left
 * alone: the static file handler serves the copies the build compressed.
 */
export function compress({ threshold = 1024 }: { threshold?: number } = {}): Middleware {
  return async function compressAnswer(ctx, next) {
    await next();
    if (ctx.method === 'HEAD' || ctx.status === 204 || ctx.status === 304 || ctx.response.get('Content-Encoding')) return;
    let body: unknown = ctx.body;
    if (body === null || body === undefined || typeof (body as { pipe?: unknown }).pipe === 'function') return;
    if (!isCompressible(ctx.response.type || '')) return;
    if (typeof body !== 'string' && !Buffer.isBuffer(body)) body = JSON.stringify(body);
    const data = Buffer.isBuffer(body) ? body : Buffer.from(body as string);
    ctx.vary('Accept-Encoding');
    if (data.length < threshold) return;
    const encoding = pickEncoding(ctx.get('Accept-Encoding'));
    if (!encoding) return;
    // The whole header, parameters included (a charset, the Prometheus format's version).
    const type = ctx.response.get('Content-Type');
    ctx.body = compressBuffer(data, encoding);
    ctx.set('Content-Type', type);
    ctx.set('Content-Encoding', encoding);
  };
}
