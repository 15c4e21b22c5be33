import type { Context, Next } from 'koa';

export interface AnsweredRequest {
  address: string;
  method: string;
  path: string;
  status: number;
}

/**
 * Tells `onAnswered` about every request once its status is final (placed outside the error handler, so thrown
 * errors are already statuses). The callback must not throw or block; it sees no bodies, headers or cookies.
 */
export function observeRequests(options: { onAnswered: (request: AnsweredRequest) => void }) {
  return async function observeRequest(ctx: Context, next: Next) {
    try {
      await next();
    } finally {
      try {
        options.onAnswered({ address: ctx.ip, method: ctx.method, path: ctx.path, status: ctx.status });
      } catch {
        // Observation must never change an answer.
      }
    }
  };
}
