import type { Context, Next } from 'koa';
import { clientKey } from '../lib/client-key';
import { RateLimitedError } from '../lib/domain-errors';
import { createCounter, scaledMax, secondsUntil, takePoint, type RateLimitStore } from '../lib/rate-limit-counter';
import { toEnvelope } from './errors';

export type { RateLimitStore };

export interface RateLimitOptions {
  windowMs: number;
  /** Requests allowed per key and window. */
  max: number;
  /** Namespaces the counters, so two limiters on one client never share a budget. */
  keyPrefix: string;
  /**
   * The client key; by default the client IP (honours X-Forwarded-For only with TRUST_PROXY), an IPv6 client per /64
   * (lib/client-key).
   */
  key?: (ctx: Context) => string;
  /** Memory (default) or Redis. */
  store?: RateLimitStore;
  message?: string;
  /** Scales `max` (config.rateLimitMultiplier: RATE_LIMIT_MULTIPLIER, default 1); the result is at least 1. */
  multiplier?: number;
  /**
   * Which requests use up the budget: `all` (default); `accepted`, only those answered below 400; `failed`, only those
   * answered 400 or more (a separate, looser budget for invalid attempts). Either way a slot is taken while the
   * request runs and given back if the answer is of the other kind, so concurrent requests cannot overshoot.
   * `denied`: only answers 401 and 403 (a bad or wrong credential); a request refused for what it carries (400, 409,
   * 413) from a caller who proved who it is never locks that caller out.
   */
  count?: 'all' | 'accepted' | 'failed' | 'denied';
  /**
   * A request this budget lets through without counting it, whatever is left (a contact submission sent again whose
   * message is stored already: its answer was lost, and its repeat stores nothing).
   */
  exempt?: (ctx: Context) => Promise<boolean> | boolean;
}

/**
 * Fixed-window rate limiter (rate-limiter-flexible). Over the limit it answers 429 with `Retry-After` and the error
 * envelope, and sets `RateLimit-Limit/Remaining/Reset` on every answer it passes.
 */
export function rateLimit(options: RateLimitOptions) {
  const keyOf = options.key ?? ((ctx: Context) => clientKey(ctx.ip));
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
    if (options.exempt && (await options.exempt(ctx))) return next();
    const key = keyOf(ctx);
    const point = await takePoint(counter, key);
    if (!point.taken) {
      // A refused attempt does not count against a budget of accepted requests.
      if (counting === 'accepted') await point.giveBack();
      const retryAfter = secondsUntil(point.res.msBeforeNext, options.windowMs);
      headers(ctx, max, retryAfter);
      throw new RateLimitedError(message, retryAfter);
    }
    headers(ctx, point.res.consumedPoints, secondsUntil(point.res.msBeforeNext, options.windowMs));
    if (counting === 'all') return next();

    // The slot is held while the request runs, so a burst cannot get more than `max` requests through at once, and
    // given back once the outcome shows it was not the kind this budget counts.
    // The answer's status: a thrown error is answered by the outer error middleware, so its status is read off it.
    let status = 500;
    try {
      await next();
      status = ctx.status;
    } catch (error) {
      status = toEnvelope(error).status;
      throw error;
    } finally {
      const counted = counting === 'accepted' ? status < 400 : counting === 'denied' ? status === 401 || status === 403 : status >= 400;
      if (!counted) await point.giveBack();
    }
  };
}
