import type { Context, Next } from 'koa';
import { currentScope, runInRequest } from '../lib/request-context';
import { remoteParentContext, SpanKind, SpanStatusCode, startSpan, traceOfSpan, withActiveSpan } from '../lib/tracing';
import { routeLabel } from './http-metrics';
import type { RequestState } from './request-id';

/**
 * The server span of every request (installed only with tracing on): named `<METHOD> <route pattern>` once the
 * route is known, with the status; the spans of the page's resolution and render, the queries and the outbound calls
 * nest under it. A trusted proxy's valid `traceparent` (TRUST_PROXY; read by request-id) continues its trace; a
 * client's is ignored. The span is the request's position in its trace: its trace id and span id replace the ones
 * request-id made, so log lines, stored rows and outgoing `traceparent` headers name the exported trace.
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
      remoteParentContext(options.trustProxy ? (ctx.state as Partial<RequestState>).traceParent : undefined),
    );
    if (!span) return next();
    const scope = currentScope();
    const trace = traceOfSpan(span);
    try {
      await (scope && trace ? runInRequest({ ...scope, trace }, () => withActiveSpan(span, next)) : withActiveSpan(span, next));
    } finally {
      const route = routeLabel(ctx);
      span.updateName(`${ctx.method} ${route}`);
      span.setAttributes({ 'http.route': route, 'http.response.status_code': ctx.status });
      if (ctx.status >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
      span.end();
    }
  };
}
