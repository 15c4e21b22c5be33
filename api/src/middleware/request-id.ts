import { randomUUID } from 'node:crypto';
import type { Context, Next } from 'koa';
import { requestLogger, type Logger } from '../lib/logger';
import { REQUEST_ID_PATTERN, runInRequest } from '../lib/request-context';
import { parseTraceparent, requestTrace, TRACEPARENT_HEADER, type TraceContext } from '../lib/trace-context';

export const REQUEST_ID_HEADER = 'X-Request-Id';

/** What request-id puts on `ctx.state` for the middleware and routes after it. */
export interface RequestState {
  requestId: string;
  /** The app's logger bound to this request's id: every line it writes carries `requestId` (and `traceId`). */
  log: Logger;
  /** The trusted proxy's valid `traceparent`, which this request's trace continues (undefined: a new trace). */
  traceParent: TraceContext | undefined;
}

/**
 * First in the chain: gives every request an id, answers it in `X-Request-Id` (on every answer: errors, 404s, static
 * files and streamed pages too, as the header is set before anything else runs), binds a child logger to it
 * (`ctx.state.log`) and runs the rest of the request inside its scope (lib/request-context.ts), so lines logged by
 * services and the work the request queues carry it as well.
 *
 * An incoming `X-Request-Id` is kept only behind a trusted proxy (TRUST_PROXY: the proxy set it, or passed on its
 * own client's) and only when it is one sane token; otherwise, and for direct clients, a new id is made, so a client
 * cannot write into the logs or make two requests look like one.
 *
 * The same for the W3C `traceparent` (lib/trace-context.ts): a trusted proxy's valid one is continued (its trace id, a
 * span of ours under its span), anything else starts a new trace. The request's trace is in its scope: every log line
 * carries its `traceId`, and the mail and webhook deliveries it queues store it and send it on.
 */
export function requestId(options: { logger: Logger; trustProxy: boolean }) {
  return async function assignRequestId(ctx: Context, next: Next) {
    const incoming = options.trustProxy ? ctx.get(REQUEST_ID_HEADER) : '';
    const id = incoming && REQUEST_ID_PATTERN.test(incoming) ? incoming : randomUUID();
    ctx.set(REQUEST_ID_HEADER, id);
    const parent = options.trustProxy ? parseTraceparent(ctx.headers[TRACEPARENT_HEADER]) : undefined;
    const state = ctx.state as RequestState;
    state.requestId = id;
    state.log = requestLogger(options.logger, id);
    state.traceParent = parent;
    await runInRequest({ requestId: id, trace: requestTrace(parent) }, next);
  };
}

/** The request's logger (the app's logger when request-id did not run, as in a unit test of one middleware). */
export function logOf(ctx: Context, fallback: Logger): Logger {
  return (ctx.state as Partial<RequestState>).log ?? fallback;
}
