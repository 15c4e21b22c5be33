import type { Kysely } from 'kysely';
import type { Database } from './schema';

export interface LeasesRepository {
  /**
   * Takes or renews the lease `name` for `holder` until `until`: true when `holder` has it now (it was free, expired
   * at `now`, or already its own). One atomic upsert, so of several instances asking at once exactly one gets it.
   */
  acquire(name: string, holder: string, now: string, until: string): Promise<boolean>;
  /** Gives the lease up (only if `holder` has it), so another instance can take it at once. */
  release(name: string, holder: string): Promise<void>;
}

/** Same SQL on SQLite and PostgreSQL (INSERT … ON CONFLICT DO UPDATE … WHERE). */
export function createLeasesRepository(db: Kysely<Database>): LeasesRepository {
  return {
    async acquire(name, holder, now, until) {
      const result = await db
        .insertInto('leases')
        .values({ name, holder, expires_at: until })
        .onConflict((oc) =>
          oc
            .column('name')
            .doUpdateSet({ holder, expires_at: until })
            .where((eb) => eb.or([eb('leases.holder', '=', holder), eb('leases.expires_at', '<=', now)])),
        )
        .executeTakeFirst();
      return Number(result.numInsertedOrUpdatedRows ?? 0) === 1;
    },
    async release(name, holder) {
      await db.deleteFrom('leases').where('name', '=', name).where('holder', '=', holder).execute();
    },
  };
}
