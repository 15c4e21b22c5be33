import type { Kysely } from 'kysely';
import type { Database } from '../db/schema';

/** A small JSON key/value store for monitoring state that must survive a restart (latest health, last versions). */
export interface AdminStateRepository {
  get<T>(key: string): Promise<T | undefined>;
  set(key: string, value: unknown, at: string): Promise<void>;
}

export function createAdminStateRepository(db: Kysely<Database>): AdminStateRepository {
  return {
    async get<T>(key: string) {
      const row = await db.selectFrom('admin_state').select('value').where('key', '=', key).executeTakeFirst();
      if (!row) return undefined;
      try {
        return JSON.parse(row.value) as T;
      } catch {
        return undefined;
      }
    },
    async set(key, value, at) {
      const text = JSON.stringify(value);
      await db
        .insertInto('admin_state')
        .values({ key, value: text, updated_at: at })
        .onConflict((oc) => oc.column('key').doUpdateSet({ value: text, updated_at: at }))
        .execute();
    },
  };
}
