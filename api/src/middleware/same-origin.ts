import type { Context, Next } from 'koa';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);
export const CROSS_ORIGIN_MESSAGE = 'This request did not come from this site.';

function originOf(value: string): string | undefined {
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.origin : undefined;
  } catch {
    return undefined;
  }
}

/**
 * CSRF defence for state-changing requests (POST, PUT, PATCH, DELETE): the `Origin` header, or the `Referer` when a
 * client sends no Origin, must be this site: `PUBLIC_ORIGIN` or the origin the request itself was made to (scheme
 * and host as Koa sees them, i.e. from X-Forwarded-* only with TRUST_PROXY). A request that names no origin at all
 * is refused too. 403 otherwise. The session cookie is also SameSite=Strict; this is the second lock.
 */
export function sameOrigin(options: { publicOrigin: string }) {
  const publicOrigin = originOf(options.publicOrigin);
  return async function requireSameOrigin(ctx: Context, next: Next) {
    if (SAFE_METHODS.has(ctx.method)) return next();
    const origin = ctx.get('Origin');
    const claimed = origin ? (origin === 'null' ? undefined : originOf(origin)) : originOf(ctx.get('Referer'));
    const own = originOf(`${ctx.protocol}://${ctx.host}`);
    if (!claimed || (claimed !== publicOrigin && claimed !== own)) {
      // An HTTP-level policy (like 404/405 in api-fallback), enveloped by errors.ts as 'forbidden'.
      ctx.throw(403, CROSS_ORIGIN_MESSAGE);
    }
    return next();
  };
}
