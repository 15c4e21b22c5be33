import type { Context, Next } from 'koa';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);
export const CROSS_ORIGIN_MESSAGE = 'This request did not come from this site.';
const LOOPBACK_HOSTS = ['localhost', '127.0.0.1', '[::1]'];

function originOf(value: string): string | undefined {
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.origin : undefined;
  } catch {
    return undefined;
  }
}

function isLoopbackOrigin(origin: string): boolean {
  return LOOPBACK_HOSTS.includes(new URL(origin).hostname);
}

/**
 * The origins a state-changing request may come from: `PUBLIC_ORIGIN`, and when that is a loopback origin (a
 * developer's machine, the default `http://localhost:PORT`, a test run) its loopback aliases on the same scheme and
 * port, so http://127.0.0.1:3000 works as well as http://localhost:3000.
 */
export function allowedOrigins(publicOrigin: string): Set<string> {
  const origin = originOf(publicOrigin);
  if (!origin) return new Set();
  if (!isLoopbackOrigin(origin)) return new Set([origin]);
  const url = new URL(origin);
  return new Set(LOOPBACK_HOSTS.map((host) => originOf(`${url.protocol}//${host}${url.port ? `:${url.port}` : ''}`)!));
}

/**
 * CSRF defence for state-changing requests (POST, PUT, PATCH, DELETE): the `Origin` header, or the `Referer` when a
 * client sends no Origin, must be this site, i.e. `PUBLIC_ORIGIN` (see `allowedOrigins`). Not the request's own Host
 * in general: a page on a name its owner points at our address (DNS rebinding) sends a Host equal to its Origin.
 * The one exception is a loopback site (PUBLIC_ORIGIN on localhost) asked through a loopback Host: the vite dev
 * servers (shell 5173, remote previews 5174-5177) proxy /api with their own Host, and only a page the developer
 * serves on that loopback port can send that Origin. A request that names no origin is refused too. 403 otherwise.
 * The session cookie is also SameSite=Strict; this is the second lock.
 */
export function sameOrigin(options: { publicOrigin: string }) {
  const cameFromSite = fromThisSite(options);
  return async function requireSameOrigin(ctx: Context, next: Next) {
    if (SAFE_METHODS.has(ctx.method)) return next();
    // An HTTP-level policy (like 404/405 in api-fallback), enveloped by errors.ts as 'forbidden'.
    if (!cameFromSite(ctx)) ctx.throw(403, CROSS_ORIGIN_MESSAGE);
    return next();
  };
}

/** Whether a request names this site as its origin: sameOrigin's rule, for a handler that answers a refusal itself. */
export function fromThisSite(options: { publicOrigin: string }): (ctx: Context) => boolean {
  const allowed = allowedOrigins(options.publicOrigin);
  const loopbackSite = [...allowed].some(isLoopbackOrigin);
  return (ctx) => {
    const origin = ctx.get('Origin');
    const claimed = origin ? (origin === 'null' ? undefined : originOf(origin)) : originOf(ctx.get('Referer'));
    const own = loopbackSite ? originOf(`${ctx.protocol}://${ctx.host}`) : undefined;
    const ownLoopback = own !== undefined && isLoopbackOrigin(own) ? own : undefined;
    return claimed !== undefined && (allowed.has(claimed) || claimed === ownLoopback);
  };
}
