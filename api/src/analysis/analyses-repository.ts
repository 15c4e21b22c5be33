import type { Kysely } from 'kysely';
import type { AnalysisResponse } from '@site/contracts/analysis';
import type { InTransaction } from '../db/in-transaction';
import type { Database } from '../db/schema';
import type { AnalysesTable } from './analysis-schema';

/** A report as stored: the answer without what each request adds (its id, `cached`, the cache note). */
export type StoredReport = Omit<AnalysisResponse, 'id' | 'cached' | 'cacheNote'>;

export interface StoredAnalysis {
  id: string;
  cacheKey: string;
  mode: 'smb' | 'website';
  /** The business it is about (what earlier reports are matched by). */
  businessKey: string;
  createdAt: Date;
  /** When its permalink was last opened (written at most once a day), if ever. */
  openedAt?: Date;
  report: StoredReport;
}

export interface AnalysisRepository {
  /** Stores the report; with `also`, that write runs in the same transaction (its outgoing events). */
  insert(record: StoredAnalysis, also?: InTransaction): Promise<void>;
  findById(id: string): Promise<StoredAnalysis | undefined>;
  /** Notes that its permalink was opened at `at` (retention keeps an analysis opened recently). */
  markOpened(id: string, at: Date): Promise<void>;
  findLatestByCacheKey(cacheKey: string, since: Date): Promise<StoredAnalysis | undefined>;
  /** The newest analyses of the business `businessKey` created before `before`, newest first (an index lookup). */
  findEarlierOfBusiness(businessKey: string, before: Date, limit: number): Promise<StoredAnalysis[]>;
}

/** Storage of analyses. Same SQL on SQLite and PostgreSQL (ISO text timestamps sort as text). */
export function createAnalysesRepository(db: Kysely<Database>): AnalysisRepository {
  const toStored = (row: AnalysesTable): StoredAnalysis => ({
    id: row.id,
    cacheKey: row.cache_key,
    mode: row.mode,
    businessKey: row.business_key ?? '',
    createdAt: new Date(row.created_at),
    ...(row.opened_at ? { openedAt: new Date(row.opened_at) } : {}),
    report: JSON.parse(row.report) as StoredAnalysis['report'],
  });
  return {
    async insert(a, also) {
      if (also) {
        await db.transaction().execute(async (trx) => {
          await createAnalysesRepository(trx).insert(a);
          await also(trx);
        });
        return;
      }
      await db
        .insertInto('analyses')
        .values({ id: a.id, cache_key: a.cacheKey, mode: a.mode, business_key: a.businessKey, created_at: a.createdAt.toISOString(), report: JSON.stringify(a.report) })
        .execute();
    },
    async findById(id) {
      const row = await db.selectFrom('analyses').selectAll().where('id', '=', id).executeTakeFirst();
      return row ? toStored(row) : undefined;
    },
    async markOpened(id, at) {
      await db.updateTable('analyses').set({ opened_at: at.toISOString() }).where('id', '=', id).execute();
    },
    async findLatestByCacheKey(cacheKey, since) {
      const row = await db
        .selectFrom('analyses')
        .selectAll()
        .where('cache_key', '=', cacheKey)
        .where('created_at', '>=', since.toISOString())
        .orderBy('created_at', 'desc')
        .limit(1)
        .executeTakeFirst();
      return row ? toStored(row) : undefined;
    },
    async findEarlierOfBusiness(businessKey, before, limit) {
      const rows = await db
        .selectFrom('analyses')
        .selectAll()
        .where('business_key', '=', businessKey)
        .where('created_at', '<', before.toISOString())
        .orderBy('created_at', 'desc')
        .limit(limit)
        .execute();
      return rows.map(toStored);
    },
  };
}
