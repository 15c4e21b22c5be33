import type { Context, Next } from 'koa';
import { RateLimiterRes } from 'rate-limiter-flexible';
import { RateLimitedError } from '../lib/domain-errors';
import { createCounter, currentWindow, scaledMax, secondsUntil, type RateLimitStore } from '../lib/rate-limit-counter';

export type { RateLimitStore };

export interface RateLimitOptions {
  windowMs: number;
  /** Requests allowed per key and window. */
  max: number;
  /** Namespaces the counters, so two limiters on one client never share a budget. */
  keyPrefix: string;
  /** The client key; the client IP by default (honours X-Forwarded-For only with TRUST_PROXY). */
  key?: (ctx: Context) => string;
  /** Memory (default) or Redis. */
  store?: RateLimitStore;
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

/**
 * Fixed-window rate limiter (rate-limiter-flexible). Over the limit it answers 429 with `Retry-After` and the error
 * envelope, and sets `RateLimit-Limit/Remaining/Reset` on every answer it passes.
 */
export function rateLimit(options: RateLimitOptions) {
  const keyOf = options.key ?? ((ctx: Context) => ctx.ip);
  const max = scaledMax(options.max, options.multiplier);
  const counter = createCounter({ keyPrefix: options.keyPrefix, points: max, windowMs: options.windowMs, store: options.store });
  const counting = options.count ?? 'all';
  const message = options.message ?? 'Too many requests. Please wait a moment and try again.';

  const headers = (ctx: Context, used: number, retryAfter: number) => {
    ctx.set('RateLimit-Limit', String(max));
    ctx.set('RateLimit-Remaining', String(Math.max(0, max - used)));
    ctx.set('RateLimit-Reset', String(retryAfter));
  };

  return async function limitRate(ctx: Context, next: Next) {
    const key = keyOf(ctx);

    if (counting === 'failed') {
      const seen = currentWindow(await counter.get(key));
      const used = seen?.consumedPoints ?? 0;
      const retryAfter = secondsUntil(seen?.msBeforeNext, options.windowMs);
      headers(ctx, used, retryAfter);
      if (used >= max) throw new RateLimitedError(message, retryAfter);
      let failed = true;
      try {
        await next();
        failed = ctx.status >= 400;
      } finally {
        if (failed) await counter.penalty(key, 1);
      }
      return;
    }

    let taken: RateLimiterRes;
    try {
      taken = await counter.consume(key, 1);
    } catch (rejected) {
      if (!(rejected instanceof RateLimiterRes)) throw rejected;
      // A refused attempt does not count against a budget of accepted requests.
      if (counting === 'accepted') await counter.reward(key, 1);
      const retryAfter = secondsUntil(rejected.msBeforeNext, options.windowMs);
      headers(ctx, max, retryAfter);
      throw new RateLimitedError(message, retryAfter);
    }
    headers(ctx, taken.consumedPoints, secondsUntil(taken.msBeforeNext, options.windowMs));
    if (counting === 'all') return next();

    const windowEndsAt = Date.now() + taken.msBeforeNext;
    let accepted = false;
    try {
      await next();
      accepted = ctx.status < 400;
    } finally {
      // A failed attempt gives its slot back, unless its window is over (the slot belongs to a new window then).
      if (!accepted && Date.now() < windowEndsAt) await counter.reward(key, 1);
    }
  };
}
