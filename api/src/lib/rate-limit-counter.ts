import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import type { Redis } from './redis';

/**
 * Where the counters live. Without `redis` each process counts on its own (the single-machine default); with it
 * (REDIS_URL) every instance behind the load balancer counts in one place, so a limit of N is N for the whole site.
 */
export interface RateLimitStore {
  redis?: Redis;
}

/** Scales a limit by RATE_LIMIT_MULTIPLIER (at least 1). */
export function scaledMax(max: number, multiplier: number | undefined): number {
  const m = multiplier !== undefined && Number.isFinite(multiplier) && multiplier > 0 ? multiplier : 1;
  return Math.max(1, Math.floor(max * m));
}

/**
 * A fixed-window counter from rate-limiter-flexible: in this process's memory, or in Redis when the store has a
 * client. A Redis that does not answer falls back to an in-memory counter of this process (its "insurance limiter"),
 * so an outage relaxes the limits to per instance instead of failing requests.
 */
export function createCounter(options: { keyPrefix: string; points: number; windowMs: number; store?: RateLimitStore }): RateLimiterAbstract {
  const duration = Math.max(1, Math.ceil(options.windowMs / 1000));
  const memory = new RateLimiterMemory({ keyPrefix: options.keyPrefix, points: options.points, duration });
  const redis = options.store?.redis;
  if (!redis) return memory;
  return new RateLimiterRedis({
    storeClient: redis,
    keyPrefix: `rl:${options.keyPrefix}`,
    points: options.points,
    duration,
    rejectIfRedisNotReady: true,
    insuranceLimiter: memory,
  });
}

/** Whole seconds (at least 1) until a counter's window ends, for Retry-After. */
export const secondsUntil = (ms: number | undefined, fallbackMs: number) => Math.max(1, Math.ceil((ms !== undefined && ms > 0 ? ms : fallbackMs) / 1000));

export interface TakenPoint {
  /** False when the window's points were used up (the point is counted all the same, past the limit). */
  taken: boolean;
  res: RateLimiterRes;
  /** Returns the point, unless its window is over: in a new window it would be a credit, not a refund. */
  giveBack(): Promise<void>;
}

/**
 * Takes one point of `key` in one atomic step (an increment in memory, one script in Redis) before the attempt it
 * stands for runs. A count read first and written after the attempt lets every attempt already in flight pass the
 * check; a point taken first cannot be taken twice.
 */
export async function takePoint(counter: RateLimiterAbstract, key: string): Promise<TakenPoint> {
  let taken = true;
  let res: RateLimiterRes;
  try {
    res = await counter.consume(key, 1);
  } catch (refused) {
    if (!(refused instanceof RateLimiterRes)) throw refused;
    taken = false;
    res = refused;
  }
  const windowEndsAt = Date.now() + res.msBeforeNext;
  return {
    taken,
    res,
    async giveBack() {
      if (Date.now() < windowEndsAt) await counter.reward(key, 1);
    },
  };
}
