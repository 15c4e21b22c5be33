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
  /**
   * Which requests use up the budget: `all` (default); `accepted`, only those answered below 400 (a slot is taken
   * while the request runs and given back if it fails, so concurrent requests cannot overshoot); `failed`, only those
   * answered 400 or more (a separate, looser budget for invalid attempts).
   */
  count?: 'all' | 'accepted' | 'failed';
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

  const counting = options.count ?? 'all';

  return async function limitRate(ctx: Context, next: Next) {
    const now = clock().getTime();
    sweep(now);
    const key = `${options.keyPrefix}:${keyOf(ctx)}`;
    let w = windows.get(key);
    if (!w || w.resetAt <= now) {
      w = { count: 0, resetAt: now + options.windowMs };
      windows.set(key, w);
    }
    const retryAfter = Math.max(1, Math.ceil((w.resetAt - now) / 1000));
    const refuse = () => {
      throw new RateLimitedError(options.message ?? 'Too many requests. Please wait a moment and try again.', retryAfter);
    };
    ctx.set('RateLimit-Limit', String(max));
    ctx.set('RateLimit-Reset', String(retryAfter));
    if (counting === 'failed') {
      ctx.set('RateLimit-Remaining', String(Math.max(0, max - w.count)));
      if (w.count >= max) refuse();
      const window = w;
      let failed = true;
      try {
        await next();
        failed = ctx.status >= 400;
      } finally {
        if (failed) window.count += 1;
      }
      return;
    }
    w.count += 1;
    ctx.set('RateLimit-Remaining', String(Math.max(0, max - w.count)));
    if (w.count > max) {
      if (counting === 'accepted') w.count -= 1;
      refuse();
    }
    if (counting === 'all') return next();
    const window = w;
    let accepted = false;
    try {
      await next();
      accepted = ctx.status < 400;
    } finally {
      // A failed attempt gives its slot back (only if the window it was taken from is still the current one).
      if (!accepted && windows.get(key) === window) window.count -= 1;
    }
  };
}
