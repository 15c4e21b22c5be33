import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { analysisBusinessKeyMigration } from '../../db/migrations/0016-analysis-business-key';
import { testBackends, type TestDatabase } from '../../test-support/databases';
import { createAnalysesRepository } from '../analyses-repository';
import { businessKeyOf } from '../analysis-service';

/*
 * A report's permalink finds the earlier reports of the same business by an indexed column (migration 0016), not by a
 * prefix of the cache key that no index serves. The migration fills the column for the rows stored before it, with the
 * rule the service applies to new ones.
 */

const report = (businessName: string, location: string) => JSON.stringify({ businessInfo: { businessName, location } });
const ROWS = [
  { id: 'w1', mode: 'website', cache_key: 'website|https://salon.example|danville', report: report('Salon', 'Danville') },
  { id: 's1', mode: 'smb', cache_key: 'smb|bella salon|danville, ca|https://bella.example', report: report('Bella  Salon', 'Danville, CA') },
  // A report without a location says 'Unknown Location'; its key has an empty location part.
  { id: 's2', mode: 'smb', cache_key: 'smb|bella salon||', report: report('Bella Salon', 'Unknown Location') },
  { id: 's3', mode: 'smb', cache_key: 'smb|broken||', report: '{not json' },
] as const;

for (const backend of testBackends()) {
  describe(`analyses by business (${backend.name})`, () => {
    let database: TestDatabase;
    beforeAll(async () => {
      database = await backend.open();
    });
    afterAll(async () => {
      await database?.dispose();
    });

    it('the migration fills the business of every stored analysis as the service names it', async () => {
      const db = database.handle.db;
      // The state before 0016: no column; rows as they were stored then.
      await analysisBusinessKeyMigration.down!(db);
      await db
        .insertInto('analyses' as never)
        .values(ROWS.map((r, i) => ({ ...r, created_at: `2026-0${i + 1}-01T00:00:00.000Z` })) as never)
        .execute();
      await analysisBusinessKeyMigration.up(db);
      const stored = await db.selectFrom('analyses').select(['id', 'business_key']).orderBy('id').execute();
      const expected = ROWS.filter((r) => r.id !== 's3').map((r) => ({
        id: r.id,
        business_key: businessKeyOf({ mode: r.mode, cacheKey: r.cache_key, report: JSON.parse(r.report) as never }),
      }));
      expect(stored).toEqual(expect.arrayContaining([...expected, { id: 's3', business_key: 'smb|||' }]));
      expect(stored.find((r) => r.id === 's1')?.business_key).toBe('smb|bella salon|danville, ca|');
    });

    it('finds the earlier analyses of one business, newest first, through the index', async () => {
      const repo = createAnalysesRepository(database.handle.db);
      const earlier = await repo.findEarlierOfBusiness('smb|bella salon|danville, ca|', new Date('2027-01-01T00:00:00.000Z'), 5);
      expect(earlier.map((a) => a.id)).toEqual(['s1']);
      expect(await repo.findEarlierOfBusiness('smb|bella salon|danville, ca|', new Date('2026-01-01T00:00:00.000Z'), 5)).toEqual([]);
      if (backend.name === 'sqlite') {
        const { rows } = await sql<{ detail: string }>`explain query plan select * from analyses where business_key = ${'x'} and created_at < ${'y'} order by created_at desc limit 5`.execute(
          database.handle.db,
        );
        expect(rows.map((r) => r.detail).join('\n')).toContain('analyses_business_key_created_at_idx');
      }
    });
  });
}
