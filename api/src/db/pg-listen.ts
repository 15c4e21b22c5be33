import pg from 'pg';
import type { Logger } from '../lib/logger';

export interface PgListener {
  close(): Promise<void>;
}

/**
 * LISTENs on PostgreSQL channels on a connection of its own (a pooled one cannot hold LISTEN), reconnecting a second
 * after a loss. `onConnect` runs after each (re)connection: whatever was notified while not listening is the
 * caller's to catch up on (a poll, a full refresh).
 */
export function listenToPostgres(options: {
  connectionString: string;
  channels: readonly string[];
  onNotification(channel: string, payload: string | undefined): void;
  onConnect?(): void;
  logger: Logger;
}): PgListener {
  const { logger } = options;
  let closed = false;
  let client: pg.Client | undefined;
  let retry: NodeJS.Timeout | undefined;

  async function connect(): Promise<void> {
    if (closed) return;
    const next = new pg.Client({ connectionString: options.connectionString });
    next.on('error', (error) => logger.warn({ err: error, channels: options.channels }, 'LISTEN connection failed; reconnecting'));
    next.on('end', () => {
      if (client === next) client = undefined;
      if (!closed) retry = setTimeout(() => void connect(), 1000);
    });
    next.on('notification', (message) => {
      if (options.channels.includes(message.channel)) options.onNotification(message.channel, message.payload);
    });
    try {
      await next.connect();
      for (const channel of options.channels) await next.query(`LISTEN ${pg.escapeIdentifier(channel)}`);
      client = next;
      if (closed) await next.end();
      else options.onConnect?.();
    } catch (error) {
      logger.warn({ err: error, channels: options.channels }, 'cannot LISTEN yet; trying again');
      await next.end().catch(() => undefined);
    }
  }
  void connect();

  return {
    async close() {
      closed = true;
      clearTimeout(retry);
      await client?.end().catch(() => undefined);
    },
  };
}
