import type { Kysely } from 'kysely';
import type { Database } from '../db/schema';

export interface StoredAdminSession {
  idHash: string;
  createdAt: string;
  lastSeenAt: string;
  activeSection: string;
}

export interface AdminSessionsRepository {
  insert(session: StoredAdminSession): Promise<void>;
  find(idHash: string): Promise<StoredAdminSession | undefined>;
  touch(idHash: string, lastSeenAt: string): Promise<void>;
  setSection(idHash: string, activeSection: string): Promise<void>;
  delete(idHash: string): Promise<void>;
  /** Deletes sessions created before `createdBefore` or idle since before `seenBefore`; answers how many. */
  purgeExpired(options: { createdBefore: string; seenBefore: string }): Promise<number>;
}

/** Server-side admin sessions. Same SQL on SQLite and PostgreSQL. */
export function createAdminSessionsRepository(db: Kysely<Database>): AdminSessionsRepository {
  return {
    async insert(s) {
      await db
        .insertInto('admin_sessions')
        .values({ id_hash: s.idHash, created_at: s.createdAt, last_seen_at: s.lastSeenAt, active_section: s.activeSection })
        .execute();
    },
    async find(idHash) {
      const row = await db.selectFrom('admin_sessions').selectAll().where('id_hash', '=', idHash).executeTakeFirst();
      return row && { idHash: row.id_hash, createdAt: row.created_at, lastSeenAt: row.last_seen_at, activeSection: row.active_section };
    },
    async touch(idHash, lastSeenAt) {
      await db.updateTable('admin_sessions').set({ last_seen_at: lastSeenAt }).where('id_hash', '=', idHash).execute();
    },
    async setSection(idHash, activeSection) {
      await db.updateTable('admin_sessions').set({ active_section: activeSection }).where('id_hash', '=', idHash).execute();
    },
    async delete(idHash) {
      await db.deleteFrom('admin_sessions').where('id_hash', '=', idHash).execute();
    },
    async purgeExpired({ createdBefore, seenBefore }) {
      const result = await db
        .deleteFrom('admin_sessions')
        .where((eb) => eb.or([eb('created_at', '<', createdBefore), eb('last_seen_at', '<', seenBefore)]))
        .executeTakeFirst();
      return Number(result.numDeletedRows);
    },
  };
}
