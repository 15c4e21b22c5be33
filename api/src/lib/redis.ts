import { Redis } from 'ioredis';
import type { Logger } from './logger';

export type { Redis };

/**
 * The Redis client of one process (REDIS_URL): rate-limit counters shared by every instance.
 *
 * Commands never queue while Redis is unreachable (`enableOfflineQueue: false`): a limiter call fails at once and the
 * limiter falls back to this process's own counters (rate-limiter-flexible's insurance limiter) instead of holding
 * the visitor's request. The client keeps reconnecting in the background; errors are logged at most once a minute.
 */
export async function connectRedis(url: string, logger: Logger, options: { connectTimeoutMs?: number; keyPrefix?: string } = {}): Promise<Redis> {
  const client = new Redis(url, {
    // REDIS_KEY_PREFIX: every key this site writes starts with it (a Redis shared with other apps, or a test run's own keys).
    ...(options.keyPrefix ? { keyPrefix: options.keyPrefix } : {}),
    lazyConnect: true,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    connectTimeout: options.connectTimeoutMs ?? 5000,
    // Reconnect quickly at first, then every 5 s at most.
    retryStrategy: (times) => Math.min(times * 200, 5000),
  });
  let lastErrorLog = 0;
  client.on('error', (err: Error) => {
    const now = Date.now();
    if (now - lastErrorLog < 60_000) return;
    lastErrorLog = now;
    logger.error({ err: { message: err.message, code: (err as NodeJS.ErrnoException).code } }, 'redis unreachable: rate limits are counted per instance until it answers');
  });
  client.on('ready', () => {
    if (lastErrorLog !== 0) logger.info('redis answers again: rate limits are shared across instances');
    lastErrorLog = 0;
  });
  try {
    await client.connect();
  } catch (err) {
    // Start anyway: a Redis outage must not take the site down; limits are per instance meanwhile.
    logger.error({ err: { message: (err as Error).message } }, 'redis did not answer at start: rate limits are per instance until it does');
  }
  return client;
}

/** Closes the connection (QUIT when connected, otherwise at once). Never throws. */
export async function closeRedis(client: Redis): Promise<void> {
  try {
    if (client.status === 'ready') await client.quit();
    else client.disconnect();
  } catch {
    client.disconnect();
  }
}
