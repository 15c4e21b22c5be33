import { sql, type Kysely, type Transaction } from 'kysely';
import { REMOTE_NAMES } from '@site/contracts/manifest';
import { isPostgres } from '../db/full-text-search';
import type { Database } from '../db/schema';

/**
 * Deletes what the retention rules let go, a small batch at a time (each batch its own short transaction, so no table is
 * held for long and other writers interleave). Each call answers how many rows of the main table it removed.
 */
export interface RetentionRepository {
  /** Outgoing webhook deliveries that are finished (delivered or failed) and created before `before`, with their attempts. */
  pruneDeliveries(before: string, batch: number): Promise<number>;
  /** Admin sessions past their age (created before `createdBefore`) or idle (last seen before `seenBefore`). */
  pruneSessions(createdBefore: string, seenBefore: string, batch: number): Promise<number>;
  /** Stored analyses created before `createdBefore` whose permalink was not opened since `openedBefore`. */
  pruneAnalyses(createdBefore: string, openedBefore: string, batch: number): Promise<number>;
  /** The oldest UTC day (YYYY-MM-DD) that still has raw tracking events, if it is before `beforeDay`. */
  oldestRawEventDay(beforeDay: string): Promise<string | undefined>;
  /** The days from `fromDay` to `toDay` (both included) that are rolled up (event_days_rolled). */
  rolledEventDays(fromDay: string, toDay: string): Promise<string[]>;
  /**
   * Rolls one complete UTC day of raw tracking events up into its daily aggregates (event_daily) and lists the day as
   * rolled up (event_days_rolled), in one transaction; the raw events stay. Idempotent and safe on several instances at
   * once: the aggregates are counted again from the raw events and written over (`count = excluded.count`), so a day
   * rolled up twice has the same rows; a day whose raw events are gone keeps its rows. A day without events is not
   * listed. Answers how many events it read.
   */
  rollUpEventDay(day: string, rolledAt: string): Promise<number>;
  /**
   * Deletes one UTC day of raw tracking events (past the retention), rolled up again first in the same transaction (as
   * `rollUpEventDay`: the same rows, or the day's first), so the day is always counted, once, with every event it
   * ever had. Answers how many raw events it removed.
   */
  expireEventDay(day: string, rolledAt: string): Promise<number>;
  /**
   * The shared release store (PostgreSQL; on SQLite its tables stay empty and this answers 0): up to `batch` releases
   * of each remote that are none of: the remote's pointer, the last `keepLast` versions of its stack (what a rollback
   * can return to), created at or after `createdBefore`. A remote without a pointer keeps every release. Each remote in
   * its own short transaction under the remote's deploy lock (site/releases/releases-repository.ts
   * `releaseTransaction`), so a deploy or rollback of it either sees the pruning done or not begun. Answers how many
   * releases went.
   */
  pruneReleases(createdBefore: string, keepLast: number, batch: number): Promise<number>;
  /**
   * Up to `batch` stored files (release_blobs) that no release left references. Under every remote's deploy lock: a
   * deploy stores a file only when its hash is not already there, so a file it counts on must not go meanwhile.
   */
  pruneReleaseBlobs(batch: number): Promise<number>;
}

/** The deploy lock of a remote: the key releases-repository.ts `releaseTransaction` takes (one deploy of a remote at a time). */
const deployLock = (trx: Transaction<Database>, remote: string) => sql`select pg_advisory_xact_lock(hashtext(${`site-release:${remote}`}))`.execute(trx);

/** The day after a YYYY-MM-DD day. */
const nextDay = (day: string) => new Date(Date.parse(`${day}T00:00:00.000Z`) + 86_400_000).toISOString().slice(0, 10);

/** Page views keep their path and props (top pages, referrer classes); other events count per day and name. */
async function rollUp(trx: Transaction<Database>, day: string, rolledAt: string): Promise<number> {
  // `where true`: SQLite's upsert after a select needs it to read `on conflict` as the upsert, not a join's.
  const { rows } = await sql<{ count: number | string | bigint }>`
    insert into event_daily (day, name, path, props, count)
    select day, name, path, props, count(*) from (
      select ${day} as day, name,
             case when name = 'page_view' then path else '' end as path,
             case when name = 'page_view' then coalesce(props, '') else '' end as props
      from events where at >= ${day} and at < ${nextDay(day)}
    ) raw
    where true
    group by day, name, path, props
    on conflict (day, name, path, props) do update set count = excluded.count
    returning count`.execute(trx);
  // A day without events is not listed: the funnel reads its (no) raw events, and an event stored in it later counts.
  if (rows.length > 0) await trx.insertInto('event_days_rolled').values({ day, rolled_at: rolledAt }).onConflict((oc) => oc.column('day').doNothing()).execute();
  return rows.reduce((n, r) => n + Number(r.count), 0);
}

export function createRetentionRepository(db: Kysely<Database>): RetentionRepository {
  return {
    async pruneDeliveries(before, batch) {
      return db.transaction().execute(async (trx) => {
        const ids = (
          await trx
            .selectFrom('outgoing_webhook_deliveries')
            .select('id')
            .where('created_at', '<', before)
            .where('status', '<>', 'pending')
            .orderBy('created_at')
            .limit(batch)
            .execute()
        ).map((r) => r.id);
        if (ids.length === 0) return 0;
        await trx.deleteFrom('outgoing_webhook_attempts').where('delivery_id', 'in', ids).execute();
        await trx.deleteFrom('outgoing_webhook_deliveries').where('id', 'in', ids).execute();
        return ids.length;
      });
    },
    async pruneSessions(createdBefore, seenBefore, batch) {
      const ids = (
        await db
          .selectFrom('admin_sessions')
          .select('id_hash')
          .where((eb) => eb.or([eb('created_at', '<', createdBefore), eb('last_seen_at', '<', seenBefore)]))
          .limit(batch)
          .execute()
      ).map((r) => r.id_hash);
      if (ids.length === 0) return 0;
      await db.deleteFrom('admin_sessions').where('id_hash', 'in', ids).execute();
      return ids.length;
    },
    async pruneAnalyses(createdBefore, openedBefore, batch) {
      const ids = (
        await db
          .selectFrom('analyses')
          .select('id')
          .where('created_at', '<', createdBefore)
          .where((eb) => eb.or([eb('opened_at', 'is', null), eb('opened_at', '<', openedBefore)]))
          .orderBy('created_at')
          .limit(batch)
          .execute()
      ).map((r) => r.id);
      if (ids.length === 0) return 0;
      await db.deleteFrom('analyses').where('id', 'in', ids).execute();
      return ids.length;
    },
    async oldestRawEventDay(beforeDay) {
      const row = await db.selectFrom('events').select('at').where('at', '<', beforeDay).orderBy('at').limit(1).executeTakeFirst();
      return row?.at.slice(0, 10);
    },
    async rolledEventDays(fromDay, toDay) {
      if (toDay < fromDay) return [];
      const rows = await db.selectFrom('event_days_rolled').select('day').where('day', '>=', fromDay).where('day', '<=', toDay).orderBy('day').execute();
      return rows.map((r) => r.day);
    },
    async rollUpEventDay(day, rolledAt) {
      return db.transaction().execute((trx) => rollUp(trx, day, rolledAt));
    },
    async expireEventDay(day, rolledAt) {
      return db.transaction().execute(async (trx) => {
        await rollUp(trx, day, rolledAt);
        const deleted = await trx.deleteFrom('events').where('at', '>=', day).where('at', '<', nextDay(day)).executeTakeFirst();
        return Number(deleted.numDeletedRows);
      });
    },
    async pruneReleases(createdBefore, keepLast, batch) {
      if (!isPostgres(db)) return 0;
      const remotes = (await db.selectFrom('releases').select('remote').distinct().where('created_at', '<', createdBefore).execute()).map((r) => r.remote);
      let removed = 0;
      for (const remote of remotes) {
        removed += await db.transaction().execute(async (trx) => {
          await deployLock(trx, remote);
          const pointer = await trx.selectFrom('release_pointers').select(['version', 'stack']).where('remote', '=', remote).executeTakeFirst();
          // No pointer: nothing says which release is served or wanted back; keep them all.
          if (!pointer) return 0;
          const stack = JSON.parse(pointer.stack) as unknown;
          const kept = new Set([pointer.version, ...(Array.isArray(stack) ? stack.filter((v): v is string => typeof v === 'string').slice(-keepLast) : [])]);
          // Oldest first; `batch + kept` rows read at most, so a batch is found even when every kept one is among them.
          const old = await trx
            .selectFrom('releases')
            .select('version')
            .where('remote', '=', remote)
            .where('created_at', '<', createdBefore)
            .orderBy('created_at')
            .orderBy('version')
            .limit(batch + kept.size)
            .execute();
          const versions = old.map((r) => r.version).filter((v) => !kept.has(v)).slice(0, batch);
          if (versions.length === 0) return 0;
          await trx.deleteFrom('releases').where('remote', '=', remote).where('version', 'in', versions).execute();
          return versions.length;
        });
      }
      return removed;
    },
    async pruneReleaseBlobs(batch) {
      if (!isPostgres(db)) return 0;
      return db.transaction().execute(async (trx) => {
        // Every remote's deploy lock, in one order (a deploy takes one; two prunes take them alike): the remotes known to
        // the contracts, the shell, and any name the store holds.
        const stored = await trx.selectFrom('release_pointers').select('remote').union(trx.selectFrom('releases').select('remote')).execute();
        const names = [...new Set<string>([...REMOTE_NAMES, 'shell', ...stored.map((r) => r.remote)])].sort();
        for (const name of names) await deployLock(trx, name);
        // A file is referenced when it is a value of some release's `files` ({ path: hash }); the releases left after
        // pruning are a bounded few per remote, so this anti-join's hash side stays small.
        const result = await sql`
          delete from release_blobs where hash in (
            select b.hash from release_blobs b
            where not exists (select 1 from releases r cross join lateral jsonb_each_text(r.files::jsonb) f where f.value = b.hash)
            limit ${batch})`.execute(trx);
        return Number(result.numAffectedRows ?? 0);
      });
    },
  };
}
