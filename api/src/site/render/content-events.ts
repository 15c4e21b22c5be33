/*
 * Changes of public content, told to every instance's render cache (render-cache.ts). A change is applied here at
 * once, before its caller is answered (the next request on this instance shows it); with PostgreSQL it is also
 * notified (NOTIFY site_content, the tags as JSON) to every other instance, which drops the same pages within
 * moments. One instance on SQLite: here only.
 */
import { sql, type Kysely } from 'kysely';
import { listenToPostgres, schemaChannel, type PgListener } from '../../db/pg-listen';
import type { Database } from '../../db/schema';
import type { Logger } from '../../lib/logger';
import type { RenderCache } from './render-cache';

export const CONTENT_CHANNEL = 'site_content';

export interface ContentEvents {
  /** The pages these tags name changed: dropped here now, and on every other instance. */
  changed(tags: string[]): void;
  close(): Promise<void>;
}

export function createContentEvents(options: {
  cache: RenderCache;
  logger: Logger;
  /** PostgreSQL: where the other instances hear of changes. */
  postgres?: { db: Kysely<Database>; databaseUrl: string; schema?: string };
}): ContentEvents {
  const { cache, logger, postgres } = options;
  // The channel of this site's schema: another site in the same database has its own (db/pg-listen.ts).
  const channel = schemaChannel(CONTENT_CHANNEL, postgres?.schema);
  let listener: PgListener | undefined;
  if (postgres) {
    listener = listenToPostgres({
      connectionString: postgres.databaseUrl,
      channels: [channel],
      onNotification(_channel, payload) {
        try {
          const tags: unknown = JSON.parse(payload ?? '[]');
          if (Array.isArray(tags)) cache.invalidate(tags.filter((tag): tag is string => typeof tag === 'string'));
        } catch {
          logger.warn({ payload }, 'a content change notice that is not a list of tags');
        }
      },
      // Missed notices while not listening: nothing cached here can be trusted to be current.
      onConnect: () => cache.clear(),
      logger,
    });
  }
  return {
    changed(tags) {
      cache.invalidate(tags);
      if (postgres) {
        // The others may drop a moment later; this instance already has.
        void sql`select pg_notify(${channel}, ${JSON.stringify(tags)})`.execute(postgres.db).catch((error: unknown) =>
          logger.error({ err: error, tags }, 'could not tell the other instances of a content change; their pages refresh within a minute'),
        );
      }
    },
    async close() {
      await listener?.close();
    },
  };
}
