import type { Kysely } from 'kysely';

/** A stored analysis as the re-keying migrations read it. */
export interface AnalysisKeyRow {
  id: string;
  cache_key: string;
  report: string;
  business_key: string | null;
}

const BATCH = 500;

/**
 * Gives every stored analysis of `mode` the business key `keyOf` names (migrations 0041 and 0042), a batch of rows
 * at a time in id order, each batch in one transaction, writing only the rows whose key changes. The rule itself
 * stays in each migration, frozen as it was when that migration was written.
 */
export async function rekeyAnalyses(db: Kysely<any>, mode: 'smb' | 'website', keyOf: (row: AnalysisKeyRow) => string): Promise<void> {
  let after = '';
  for (;;) {
    const rows = (await db
      .selectFrom('analyses')
      .select(['id', 'cache_key', 'report', 'business_key'])
      .where('mode', '=', mode)
      .where('id', '>', after)
      .orderBy('id')
      .limit(BATCH)
      .execute()) as AnalysisKeyRow[];
    if (rows.length === 0) break;
    await db.transaction().execute(async (trx) => {
      for (const row of rows) {
        const key = keyOf(row);
        if (key !== row.business_key) await trx.updateTable('analyses').set({ business_key: key }).where('id', '=', row.id).execute();
      }
    });
    after = rows.at(-1)!.id;
  }
}
