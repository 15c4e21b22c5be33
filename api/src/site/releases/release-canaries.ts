/*
 * Canaries (issue 34): a staged release of a remote served to a share of visitors while the served release keeps the
 * others. A canary is a row of the site's database (release_canaries, migration 0029; SQLite or PostgreSQL), so every
 * instance splits visitors the same way: a visitor's bucket (a random id in a long-lived cookie, nothing personal) is
 * hashed with the canary's id to a slot from 0 to 99, and slots below the canary's percent get its release. The same
 * visitor gets the same release on every page, on the next visit and from any instance; raising the share keeps those
 * already in it; another canary draws another sample. The canary's release stays a staged release while it runs
 * (served by the same path as a preview: remote-registry.ts's snapshotFor), and becomes a release like any other when
 * it is promoted to everyone.
 *
 * Each instance keeps the running canaries in memory for the request path (release-choice.ts reads them without a
 * query): refreshed when this instance changes one, and on PostgreSQL by release-sync.ts on every NOTIFY and poll.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { Kysely, Transaction } from 'kysely';
import { REMOTE_NAMES, type RemoteName } from '@site/contracts/manifest';
import type { Database } from '../../db/schema';
import type { Logger } from '../../lib/logger';
import type { Canary } from '../../deploys/release-deployer';

export type { Canary } from '../../deploys/release-deployer';

/** The visitor's bucket: a random id, drawn on the first answer that needs it while a canary runs. */
export const BUCKET_COOKIE = 'site_bucket';
/** How long the bucket cookie lasts: a visitor coming back within a year gets the same release. */
export const BUCKET_COOKIE_DAYS = 365;
/** What a bucket id looks like (16 random bytes, base64url: 22 characters); anything else is drawn again. */
const BUCKET_ID = /^[\w-]{16,64}$/;

export const newBucketId = (): string => randomBytes(16).toString('base64url');
export const isBucketId = (value: string | undefined): value is string => value !== undefined && BUCKET_ID.test(value);

/**
 * The slot (0 to 99) of a visitor's bucket in a canary: the first 32 bits of SHA-256(canary id, bucket) modulo 100
 * (a bias of 96 in 2^32: nothing a share of visitors shows). A visitor is in the canary when the slot is below its percent.
 */
export function canarySlot(canaryId: string, bucket: string): number {
  return createHash('sha256').update(`${canaryId}\n${bucket}`).digest().readUInt32BE(0) % 100;
}

/** How a canary ended: served to everyone, rolled back by the canary check, or stopped (a rollback request, or what it ran against changed). */
export type CanaryOutcome = 'promoted' | 'rolled_back' | 'stopped';

type Db = Kysely<Database> | Transaction<Database>;

const toCanary = (row: Database['release_canaries']): Canary => ({
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
export async function readRunningCanaries(db: Db): Promise<Canary[]> {
  const rows = await db.selectFrom('release_canaries').selectAll().where('ended_at', 'is', null).orderBy('started_at').execute();
  return rows.filter((row) => (REMOTE_NAMES as readonly string[]).includes(row.app)).map(toCanary);
}

/** The canary of `app` running now, or null. */
export async function readRunningCanary(db: Db, app: string): Promise<Canary | null> {
  const row = await db.selectFrom('release_canaries').selectAll().where('app', '=', app).where('ended_at', 'is', null).executeTakeFirst();
  return row ? toCanary(row) : null;
}

/** Starts a canary (the unique index refuses a second running one of the app: the caller checked under its deploy lock). */
export async function insertCanary(db: Db, canary: Canary): Promise<void> {
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
export async function updateCanary(db: Db, id: string, change: { percent: number; promoteAfter: string | null }): Promise<void> {
  await db.updateTable('release_canaries').set({ percent: change.percent, promote_after: change.promoteAfter }).where('id', '=', id).where('ended_at', 'is', null).execute();
}

/** Ends the canary `id` if it still runs; true when this call ended it. */
export async function endCanary(db: Db, id: string, end: { outcome: CanaryOutcome; reason: string; at: string }): Promise<boolean> {
  const result = await db
    .updateTable('release_canaries')
    .set({ ended_at: end.at, outcome: end.outcome, reason: end.reason.slice(0, 4000) })
    .where('id', '=', id)
    .where('ended_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

export interface CanaryCache {
  /** The canaries running as last read (the request path's: no query). */
  running(): readonly Canary[];
  /** Reads them again; a failed read keeps what was read last (and logs why). */
  refresh(): Promise<void>;
}

/** The running canaries of this instance's database, kept in memory between refreshes. */
export function createCanaryCache(db: Kysely<Database>, logger?: Logger): CanaryCache {
  let running: readonly Canary[] = Object.freeze([]);
  // One read at a time; a refresh asked during one reads again after it (what it reads was written before it asked).
  let reading: Promise<void> | undefined;
  let again: Promise<void> | undefined;
  async function read(): Promise<void> {
    try {
      const next = await readRunningCanaries(db);
      const before = running.map((c) => `${c.id}:${c.percent}`).join(',');
      running = Object.freeze(next);
      const after = running.map((c) => `${c.id}:${c.percent}`).join(',');
      if (before !== after) logger?.info({ canaries: running.map((c) => `${c.app} ${c.version} ${c.percent}%`) }, running.length ? 'canaries running' : 'no canary running');
    } catch (error) {
      logger?.warn({ err: error }, 'could not read the running canaries: keeping the last ones read');
    }
  }
  function start(): Promise<void> {
    const run = read().finally(() => {
      if (reading === run) reading = undefined;
    });
    reading = run;
    return run;
  }
  return {
    running: () => running,
    refresh() {
      if (!reading) return start();
      again ??= reading.then(() => {
        again = undefined;
        return start();
      });
      return again;
    },
  };
}
