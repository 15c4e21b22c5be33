import type { Kysely } from 'kysely';
import type { Migration } from './migration';

/*
 * The business a stored analysis is about, as its own indexed column (issue 32): a report's permalink shows the latest
 * earlier report of the same business, which was found with a `substr(cache_key, …)` filter no index serves (every
 * analysis read, 246 ms on SQLite at 50,000). Existing rows are filled here in batches, with the rule as it was when
 * this was written (analysis-service.ts `businessKeyOf`), copied so the migration stays frozen.
 */

const BATCH = 500;
const norm = (s: string | undefined) => (s ?? '').trim().toLowerCase().replace(/\s+/g, ' ');

function businessKeyOf(mode: string, cacheKey: string, reportJson: string): string {
  if (mode === 'website') return cacheKey;
  let info: { businessName?: string; location?: string } = {};
  try {
    info = (JSON.parse(reportJson) as { businessInfo?: typeof info }).businessInfo ?? {};
  } catch {
    // An unreadable report: the name-only key below (what the old lookup compared it to).
  }
  const withLocation = `smb|${norm(info.businessName)}|${norm(info.location)}|`;
  return cacheKey.startsWith(withLocation) ? withLocation : `smb|${norm(info.businessName)}||`;
}

export const analysisBusinessKeyMigration: Migration = {
  name: '0016-analysis-business-key',
  async up(db: Kysely<any>) {
    await db.schema.alterTable('analyses').addColumn('business_key', 'text').execute();
    let after = '';
    for (;;) {
      const rows = (await db
        .selectFrom('analyses')
        .select(['id', 'mode', 'cache_key', 'report'])
        .where('id', '>', after)
        .orderBy('id')
        .limit(BATCH)
        .execute()) as Array<{ id: string; mode: string; cache_key: string; report: string }>;
      if (rows.length === 0) break;
      await db.transaction().execute(async (trx) => {
        for (const row of rows) {
          await trx.updateTable('analyses').set({ business_key: businessKeyOf(row.mode, row.cache_key, row.report) }).where('id', '=', row.id).execute();
        }
      });
      after = rows.at(-1)!.id;
    }
    await db.schema.createIndex('analyses_business_key_created_at_idx').on('analyses').columns(['business_key', 'created_at']).execute();
  },
  async down(db: Kysely<any>) {
    await db.schema.dropIndex('analyses_business_key_created_at_idx').execute();
    await db.schema.alterTable('analyses').dropColumn('business_key').execute();
  },
};
