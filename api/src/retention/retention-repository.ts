import type { Kysely } from 'kysely';
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
  };
}
