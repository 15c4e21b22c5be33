import { createHash } from 'node:crypto';
import { sql } from 'kysely';
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
    // Keepalive: a server that vanishes without closing the socket (a network cut) is noticed, not waited on for good.
    const next = new pg.Client({ connectionString: options.connectionString, keepAlive: true, connectionTimeoutMillis: 5000 });
    // Once per client, whichever way it failed (its 'end', or a connect that failed without one): the next try in a second.
    let retried = false;
    const retryLater = () => {
      if (client === next) client = undefined;
      if (closed || retried) return;
      retried = true;
      retry = setTimeout(() => void connect(), 1000);
    };
    next.on('error', (error) => logger.warn({ err: error, channels: options.channels }, 'LISTEN connection failed; reconnecting'));
    next.on('end', retryLater);
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
      retryLater();
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

/**
 * The name of a NOTIFY channel for the site in `schema`: `base` in `public`, else `base_<16 hex of md5(schema)>`, so
 * that several sites (or test runs) in schemas of one database hear only their own notices. `schemaChannelSql` is the
 * same name computed by PostgreSQL from the connection's `current_schema()` (the deploy tool, which knows no schema).
 */
export function schemaChannel(base: string, schema: string | undefined): string {
  if (!schema || schema === 'public') return base;
  return `${base}_${createHash('md5').update(schema).digest('hex').slice(0, 16)}`;
}

export function schemaChannelSql(base: string) {
  return sql<string>`case when current_schema() = 'public' then ${base} else ${base} || '_' || left(md5(current_schema()), 16) end`;
}
