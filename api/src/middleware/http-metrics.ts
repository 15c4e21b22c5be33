import { createHash, timingSafeEqual } from 'node:crypto';
import type { Context, Next } from 'koa';
import type { AppMetrics } from '../lib/metrics';

const isApiPath = (path: string) => path === '/api' || path.startsWith('/api/');

/**
 * The route of a request as a metric label or span name: the API route's pattern (`/api/posts/:slug`), `/metrics`,
 * and for everything else a fixed word: `page` (an HTML page of the site), `static` (files, /remotes.json, a missing
 * file's 404) or `unmatched` (an /api path no route has). Never the raw path: a label per URL would be unbounded.
 */
export function routeLabel(ctx: Context): string {
  const matched = (ctx as Context & { _matchedRoute?: unknown })._matchedRoute;
  if (typeof matched === 'string') return matched;
  const own = (ctx.state as { route?: unknown }).route;
  if (typeof own === 'string') return own;
  if (isApiPath(ctx.path)) return 'unmatched';
  return ctx.response.type === 'text/html' ? 'page' : 'static';
}

/** Counts and times every request once its status is final (placed outside the error handler). */
export function httpMetrics(options: { metrics: AppMetrics }) {
  return async function countRequest(ctx: Context, next: Next) {
    const started = process.hrtime.bigint();
    try {
      await next();
    } finally {
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      options.metrics.requestAnswered(ctx.method, routeLabel(ctx), ctx.status, seconds);
    }
  };
}

const digest = (value: string) => createHash('sha256').update(value).digest();

/**
 * `GET /metrics`: the Prometheus exposition, only to a scraper that sends `Authorization: Bearer <METRICS_TOKEN>`
 * (401 otherwise). The token is compared in constant time (digests of equal length). Installed only when
 * METRICS_TOKEN is set: without it `/metrics` is any unknown path (404).
 */
export function metricsEndpoint(options: { metrics: AppMetrics; token: string }) {
  const expected = digest(options.token);
  return async function serveMetrics(ctx: Context, next: Next) {
    if (ctx.path !== '/metrics') return next();
    (ctx.state as { route?: string }).route = '/metrics';
    ctx.set('Cache-Control', 'no-store');
    if (ctx.method !== 'GET' && ctx.method !== 'HEAD') {
      ctx.status = 405;
      ctx.set('Allow', 'GET, HEAD');
      return;
    }
    const header = ctx.get('Authorization');
    const presented = header.startsWith('Bearer ') ? header.slice('Bearer '.length).trim() : '';
    if (!presented || !timingSafeEqual(digest(presented), expected)) {
      ctx.status = 401;
      ctx.set('WWW-Authenticate', 'Bearer realm="metrics"');
      ctx.type = 'text/plain; charset=utf-8';
      ctx.body = 'A bearer token is required.\n';
      return;
    }
    const { contentType, body } = await options.metrics.scrape();
    ctx.body = body;
    // Set as it is: prom-client's type names the exposition format's version, which Koa's `ctx.type` would drop.
    ctx.set('Content-Type', contentType);
  };
}
