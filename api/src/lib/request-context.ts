import { AsyncLocalStorage } from 'node:async_hooks';
import type { Span } from '@opentelemetry/api';
import { childTrace, formatTraceparent, parseTraceparent, type TraceContext } from './trace-context';
import { traceOfSpan, withRemoteParent } from './tracing';

/** What every log line and span of one request can read without it being passed down: the request's id and trace. */
export interface RequestScope {
  requestId: string;
  /** The request's W3C trace context (lib/trace-context.ts): its trace, and its own span in it. */
  trace?: TraceContext;
}

/** The request a queued row (an owner mail, a webhook delivery) was written by: stored with the row, read when it is sent. */
export interface RequestOrigin {
  requestId?: string | null;
  /** The request's `traceparent` (its trace and span), so the send continues that trace. */
  traceparent?: string | null;
}

const storage = new AsyncLocalStorage<RequestScope>();

/**
 * A request id accepted from a trusted proxy: one token of at most 128 safe characters (no spaces, quotes or
 * control characters that could forge log fields or headers). Anchored, one character class: linear time.
 */
export const REQUEST_ID_PATTERN = /^[\w.:-]{1,128}$/;

/** Runs `fn` as part of a request: what it logs, and the work it starts (outbox runs it kicks), carries the id. */
export function runInRequest<T>(scope: RequestScope, fn: () => T): T {
  return storage.run(scope, fn);
}

/** Runs `fn` outside any request (background loops that must not inherit the id of whichever request started them). */
export function runOutsideRequest<T>(fn: () => T): T {
  return storage.exit(fn);
}

/**
 * Runs `fn` as part of the request a queued row came from when there is one (queued work sent later: its request's
 * id and trace; with tracing on, its spans are children of that request's span).
 */
export function inRequestOf<T>(origin: RequestOrigin, fn: () => T): T {
  if (!origin.requestId) return storage.exit(fn);
  const trace = parseTraceparent(origin.traceparent ?? undefined);
  return storage.run({ requestId: origin.requestId, ...(trace ? { trace } : {}) }, () => withRemoteParent(trace, fn));
}

/** The id of the request the caller is running for, if any. */
export function currentRequestId(): string | undefined {
  return storage.getStore()?.requestId;
}

/** The trace of the request the caller is running for, if any. */
export function currentTrace(): TraceContext | undefined {
  return storage.getStore()?.trace;
}

/** What a row queued now stores of its request (with the row, for its send later). */
export function currentOrigin(): { requestId: string | null; traceparent: string | null } {
  const scope = storage.getStore();
  return { requestId: scope?.requestId ?? null, traceparent: scope?.trace ? formatTraceparent(scope.trace) : null };
}

/** The request's scope, for middleware that runs the rest of the request with a changed trace (middleware/trace-request.ts). */
export function currentScope(): RequestScope | undefined {
  return storage.getStore();
}

/**
 * The `traceparent` one send carries (a webhook delivery attempt, a mail): the trace of the request it is part of,
 * with a span id of its own (the send's client span when tracing is on, else a new one). Undefined outside a request
 * with a trace (a row queued before traces were kept, the scheduler's own work without tracing).
 */
export function traceparentForSend(span: Span | undefined): string | undefined {
  const own = span ? traceOfSpan(span) : undefined;
  if (own) return formatTraceparent(own);
  const trace = currentTrace();
  return trace ? formatTraceparent(childTrace(trace)) : undefined;
}
