import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/schema';

/** What one instance adds to one release's minute (the increments it held since its last flush). */
export interface ReleaseCountDelta {
  app: string;
  release: string;
  /** The minute's start, ISO 8601 UTC. */
  bucket: string;
  pageViews: number;
  renderErrors: number;
  clientErrors: number;
  /** The latest client error message among them, if any. */
  lastError: string | null;
}

/** A reporter of a release's browser errors, and the minute it last reported one (ISO 8601 UTC). */
export interface ReleaseReporterSeen {
  app: string;
  release: string;
  reporter: string;
  lastSeen: string;
}

/** One release's sums over a stretch of minutes. */
export interface StoredReleaseCounts {
  app: string;
  release: string;
  pageViews: number;
  renderErrors: number;
  clientErrors: number;
  /** Distinct reporters of its browser errors seen in those minutes (every instance's). */
  clientReporters: number;
}

/**
 * The per-minute counters of each release (table release_counts, migration 0027), shared by every instance: each adds
 * its increments with one upsert per row that adds (`page_views = page_views + excluded.page_views`), so two
 * instances counting the same minute end with the sum, on SQLite and PostgreSQL alike.
 */
export interface ReleaseCountsRepository {
  /** Adds the deltas and records the reporters (their latest minute kept), in one transaction. */
  add(deltas: readonly ReleaseCountDelta[], reporters?: readonly ReleaseReporterSeen[]): Promise<void>;
  /** The sums per app and release of the minutes from `since` (included), with their distinct reporters since then. */
  sums(since: string): Promise<StoredReleaseCounts[]>;
  /** The latest client error message per app and release of the minutes from `since` (apps and releases without one left out). */
  lastErrors(since: string): Promise<Array<{ app: string; release: string; lastError: string }>>;
  /** Deletes up to `batch` rows of minutes before `before` (and up to `batch` reporters last seen before it); answers how many went. */
  prune(before: string, batch: number): Promise<number>;
}

export function createReleaseCountsRepository(db: Kysely<Database>): ReleaseCountsRepository {
  return {
    async add(deltas, reporters = []) {
      if (deltas.length === 0 && reporters.length === 0) return;
      await db.transaction().execute(async (trx) => {
        for (const r of reporters) {
          await trx
            .insertInto('release_reporters')
            .values({ app: r.app, release: r.release, reporter: r.reporter, last_seen: r.lastSeen })
            .onConflict((oc) =>
              oc.columns(['app', 'release', 'reporter']).doUpdateSet({
                // A flush retried after a later one must not move a reporter back in time.
                last_seen: sql`case when excluded.last_seen > release_reporters.last_seen then excluded.last_seen else release_reporters.last_seen end`,
              }),
            )
            .execute();
        }
        for (const d of deltas) {
          await trx
            .insertInto('release_counts')
            .values({
              app: d.app,
              release: d.release,
              bucket: d.bucket,
              page_views: d.pageViews,
              render_errors: d.renderErrors,
              client_errors: d.clientErrors,
              last_error: d.lastError,
            })
            .onConflict((oc) =>
              oc.columns(['app', 'release', 'bucket']).doUpdateSet({
                page_views: sql`release_counts.page_views + excluded.page_views`,
                render_errors: sql`release_counts.render_errors + excluded.render_errors`,
                client_errors: sql`release_counts.client_errors + excluded.client_errors`,
                last_error: sql`coalesce(excluded.last_error, release_counts.last_error)`,
              }),
            )
            .execute();
        }
      });
    },
    async sums(since) {
      const rows = await db
        .selectFrom('release_counts')
        .select((eb) => [
          'app',
          'release',
          eb.fn.sum<number | string | bigint>('page_views').as('page_views'),
          eb.fn.sum<number | string | bigint>('render_errors').as('render_errors'),
          eb.fn.sum<number | string | bigint>('client_errors').as('client_errors'),
        ])
        .where('bucket', '>=', since)
        .groupBy(['app', 'release'])
        .execute();
      const reporters = await db
        .selectFrom('release_reporters')
        .select((eb) => ['app', 'release', eb.fn.countAll<number | string | bigint>().as('reporters')])
        .where('last_seen', '>=', since)
        .groupBy(['app', 'release'])
        .execute();
      const reportersOf = new Map(reporters.map((r) => [`${r.app}\n${r.release}`, Number(r.reporters)]));
      return rows.map((r) => ({
        app: r.app,
        release: r.release,
        pageViews: Number(r.page_views),
        renderErrors: Number(r.render_errors),
        clientErrors: Number(r.client_errors),
        clientReporters: reportersOf.get(`${r.app}\n${r.release}`) ?? 0,
      }));
    },
    async lastErrors(since) {
      // The newest minute with a message, per app and release: a window of minutes, so a few rows per release at most.
      const rows = await db
        .selectFrom('release_counts')
        .select(['app', 'release', 'bucket', 'last_error'])
        .where('bucket', '>=', since)
        .where('last_error', 'is not', null)
        .orderBy('bucket', 'desc')
        .execute();
      const latest = new Map<string, { app: string; release: string; lastError: string }>();
      for (const r of rows) {
        const key = `${r.app}\n${r.release}`;
        if (!latest.has(key)) latest.set(key, { app: r.app, release: r.release, lastError: r.last_error! });
      }
      return [...latest.values()];
    },
    async prune(before, batch) {
      return db.transaction().execute(async (trx) => {
        const seen = await trx.selectFrom('release_reporters').select(['app', 'release', 'reporter']).where('last_seen', '<', before).limit(batch).execute();
        for (const r of seen) await trx.deleteFrom('release_reporters').where('app', '=', r.app).where('release', '=', r.release).where('reporter', '=', r.reporter).execute();
        // A full batch of reporters: more may be left, and the next round comes back for them.
        if (seen.length === batch) return batch;
        const keys = await trx.selectFrom('release_counts').select(['app', 'release', 'bucket']).where('bucket', '<', before).limit(batch).execute();
        if (keys.length === 0) return seen.length;
        // Deleted by the minutes found (the primary key's columns): at most `batch` rows, whatever else lies before.
        for (const bucket of new Set(keys.map((k) => k.bucket))) {
          const ofBucket = keys.filter((k) => k.bucket === bucket);
          await trx
            .deleteFrom('release_counts')
            .where('bucket', '=', bucket)
            .where((eb) => eb.or(ofBucket.map((k) => eb.and([eb('app', '=', k.app), eb('release', '=', k.release)]))))
            .execute();
        }
        return Math.min(batch, keys.length + seen.length);
      });
    },
  };
}
