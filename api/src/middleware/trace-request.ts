import type { Context, Next } from 'koa';
import { incomingContext, SpanKind, SpanStatusCode, startSpan, withActiveSpan } from '../lib/tracing';
import { routeLabel } from './http-metrics';
import type { RequestState } from './request-id';

/**
 * The server span of every request (installed only with tracing on): named `<METHOD> <route pattern>` once the
 * route is known, with the status; the spans of the page's resolution and render, the queries and the outbound calls
 * nest under it. A trusted proxy's `traceparent` (TRUST_PROXY) continues its trace; a client's is ignored.
 */
export function traceRequests(options: { trustProxy: boolean }) {
  return async function traceRequest(ctx: Context, next: Next) {
    const span = startSpan(
      ctx.method,
      {
        kind: SpanKind.SERVER,
        attributes: {
          'http.request.method': ctx.method,
          'url.path': ctx.path,
          'url.scheme': ctx.protocol,
          'request.id': (ctx.state as Partial<RequestState>).requestId ?? '',
        },
      },
      incomingContext(ctx.headers, options.trustProxy),
    );
    if (!span) return next();
    try {
      await withActiveSpan(span, next);
    } finally {
      const route = routeLabel(ctx);
      span.updateName(`${ctx.method} ${route}`);
      span.setAttributes({ 'http.route': route, 'http.response.status_code': ctx.status });
      if (ctx.status >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
      span.end();
    }
  };
}
