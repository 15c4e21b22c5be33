import { AsyncLocalStorage } from 'node:async_hooks';

/** What every log line and span of one request can read without it being passed down: the request's id. */
export interface RequestScope {
  requestId: string;
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

/** Runs `fn` as part of the request with this id when there is one (queued work sent later: its request's id). */
export function inRequestOf<T>(requestId: string | null | undefined, fn: () => T): T {
  return requestId ? storage.run({ requestId }, fn) : storage.exit(fn);
}

/** The id of the request the caller is running for, if any. */
export function currentRequestId(): string | undefined {
  return storage.getStore()?.requestId;
}
