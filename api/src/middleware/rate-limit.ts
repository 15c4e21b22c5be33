import type { Context, Next } from 'koa';
import { RateLimitedError } from '../lib/domain-errors';
import { systemClock, type Clock } from '../lib/clock';

export interface RateLimitOptions {
  windowMs: number;
  /** Requests allowed per key and window. */
  max: number;
  /** Namespaces the counters, so two limiters on one client never share a budget. */
  keyPrefix: string;
  /** The client key; the client IP by default (honours X-Forwarded-For only with TRUST_PROXY). */
  key?: (ctx: Context) => string;
  clock?: Clock;
  message?: string;
  /** Scales `max` (config.rateLimitMultiplier: RATE_LIMIT_MULTIPLIER, default 1); the result is at least 1. */
  multiplier?: number;
}

interface Window {
  count: number;
  resetAt: number;
}

/**
 * Fixed-window, in-memory rate limiter for one process. Over the limit it answers 429 with
 * `Retry-After` and the error envelope. Expired windows are swept lazily, so memory stays bounded
 * by the number of clients seen within one window.
 */
export function rateLimit(options: RateLimitOptions) {
  const clock = options.clock ?? systemClock;
  const keyOf = options.key ?? ((ctx: Context) => ctx.ip);
  const multiplier = options.multiplier !== undefined && Number.isFinite(options.multiplier) && options.multiplier > 0 ? options.multiplier : 1;
  const max = Math.max(1, Math.floor(options.max * multiplier));
  const windows = new Map<string, Window>();
  let nextSweep = 0;

  const sweep = (now: number) => {
    if (now < nextSweep) return;
    nextSweep = now + options.windowMs;
    for (const [key, w] of windows) if (w.resetAt <= now) windows.delete(key);
  };

  return async function limitRate(ctx: Context, next: Next) {
    const now = clock().getTime();
    sweep(now);
    const key = `${options.keyPrefix}:${keyOf(ctx)}`;
    let w = windows.get(key);
    if (!w || w.resetAt <= now) {
      w = { count: 0, resetAt: now + options.windowMs };
      windows.set(key, w);
    }
    w.count += 1;
    const retryAfter = Math.max(1, Math.ceil((w.resetAt - now) / 1000));
    ctx.set('RateLimit-Limit', String(max));
    ctx.set('RateLimit-Remaining', String(Math.max(0, max - w.count)));
    ctx.set('RateLimit-Reset', String(retryAfter));
    if (w.count > max) {
      throw new RateLimitedError(options.message ?? 'Too many requests. Please wait a moment and try again.', retryAfter);
    }
    await next();
  };
}
