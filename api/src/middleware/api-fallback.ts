import type Router from '@koa/router';
import type { Context, DefaultState, Next } from 'koa';

const isApiPath = (path: string) => path === '/api' || path.startsWith('/api/');

/**
 * Runs after the API router. An `/api` request nobody answered is a 405 (with `Allow`) when the
 * path exists for other methods, 204 for OPTIONS on such a path, and a 404 envelope otherwise.
 * Other paths pass on to the site.
 */
export function apiFallback(options: { router: Pick<Router<DefaultState, Context>, 'match'> }) {
  return async function answerUnmatchedApi(ctx: Context, next: Next) {
    if (!isApiPath(ctx.path)) return next();
    const allowed = new Set<string>();
    for (const layer of options.router.match(ctx.path, ctx.method).path) {
      for (const method of layer.methods) allowed.add(method);
    }
    // HTTP-level failures (no endpoint, wrong method): koa's http errors, enveloped by errors.ts.
    if (allowed.size === 0) ctx.throw(404, `There is no API endpoint at ${ctx.path}.`);
    allowed.add('OPTIONS');
    const allow = [...allowed].join(', ');
    if (ctx.method === 'OPTIONS') {
      ctx.status = 204;
      ctx.set('Allow', allow);
      return;
    }
    ctx.throw(405, `${ctx.method} is not allowed on ${ctx.path}.`, { headers: { Allow: allow } });
  };
}
