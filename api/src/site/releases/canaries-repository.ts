/*
 * The canaries' SQL (issue 34): a canary is a row of the site's database (release_canaries, migration 0029; SQLite or
 * PostgreSQL), so every instance splits visitors the same way (release-choice.ts). The deployer starts, changes and
 * ends them under the app's deploy lock; each instance reads the running ones into memory (release-choice.ts's cache).
 */
import type { Kysely, Transaction } from 'kysely';
import type { CanaryStatus } from '@site/contracts/deploys';
import { REMOTE_NAMES, type RemoteName } from '@site/contracts/manifest';
import type { Database } from '../../db/schema';

/** A running canary as its row holds it (the deployer's Canary: deploys/deployer-port.ts). */
export type StoredCanary = Omit<CanaryStatus, 'countedSince' | 'canary' | 'served'> & { id: string };

/** How a canary ended: served to everyone, rolled back by the canary check, or stopped (a rollback request, or what it ran against changed). */
export type CanaryOutcome = 'promoted' | 'rolled_back' | 'stopped';

/** The site's database, or one deploy's transaction (on PostgreSQL, which then notifies). */
export type CanariesDb = Kysely<Database> | Transaction<Database>;

const toCanary = (row: Database['release_canaries']): StoredCanary => ({
  id: row.id,
  app: row.app as RemoteName,
  version: row.version,
  current: row.current,
  percent: Number(row.percent),
  startedAt: row.started_at,
  promoteAfter: row.promote_after,
  by: row.by,
});

/** Every canary running now, one per app at most. */
export async function readRunningCanaries(db: CanariesDb): Promise<StoredCanary[]> {
  const rows = await db.selectFrom('release_canaries').selectAll().where('ended_at', 'is', null).orderBy('started_at').execute();
  return rows.filter((row) => (REMOTE_NAMES as readonly string[]).includes(row.app)).map(toCanary);
}

/** The canary of `app` running now, or null. */
export async function readRunningCanary(db: CanariesDb, app: string): Promise<StoredCanary | null> {
  const row = await db.selectFrom('release_canaries').selectAll().where('app', '=', app).where('ended_at', 'is', null).executeTakeFirst();
  return row ? toCanary(row) : null;
}

/** Starts a canary (the unique index refuses a second running one of the app: the caller checked under its deploy lock). */
export async function insertCanary(db: CanariesDb, canary: StoredCanary): Promise<void> {
  await db
    .insertInto('release_canaries')
    .values({
      id: canary.id,
      app: canary.app,
      version: canary.version,
      current: canary.current,
      percent: canary.percent,
      started_at: canary.startedAt,
      promote_after: canary.promoteAfter,
      by: canary.by.slice(0, 200),
      ended_at: null,
      outcome: null,
      reason: null,
    })
    .execute();
}

/** A running canary's new share (and time to be served to everyone). */
export async function updateCanary(db: CanariesDb, id: string, change: { percent: number; promoteAfter: string | null }): Promise<void> {
  await db.updateTable('release_canaries').set({ percent: change.percent, promote_after: change.promoteAfter }).where('id', '=', id).where('ended_at', 'is', null).execute();
}

/** Ends the canary `id` if it still runs; true when this call ended it. */
export async function endCanary(db: CanariesDb, id: string, end: { outcome: CanaryOutcome; reason: string; at: string }): Promise<boolean> {
  const result = await db
    .updateTable('release_canaries')
    .set({ ended_at: end.at, outcome: end.outcome, reason: end.reason.slice(0, 4000) })
    .where('id', '=', id)
    .where('ended_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}
