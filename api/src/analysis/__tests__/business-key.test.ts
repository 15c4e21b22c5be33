import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { analysisBusinessKeyMigration } from '../../db/migrations/0016-analysis-business-key';
import { analysisBusinessWebsiteMigration } from '../../db/migrations/0041-analysis-business-website';
import { testBackends, type TestDatabase } from '../../test-support/databases';
import { createAnalysesRepository } from '../analyses-repository';
import { businessKeyOf, websiteKeyOf } from '../analysis-service';

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

describe('the website part of an SMB business (issue 54, item 4)', () => {
  it('is one website however it is written: no scheme, www., case, trailing slash, query or fragment', () => {
    const bella = ['https://www.Bella.example/', 'http://bella.example', 'bella.example/', 'HTTPS://BELLA.EXAMPLE/?utm_source=gbp#top', 'https://bella.example:443'];
    for (const url of bella) expect(websiteKeyOf(url), url).toBe('bella.example');
    expect(websiteKeyOf('https://bella.example/danville/')).toBe('bella.example/danville');
    expect(websiteKeyOf('https://bella.example:8080/')).toBe('bella.example:8080');
    expect(websiteKeyOf('https://bellasalon.example/')).not.toBe('bella.example');
    expect(websiteKeyOf('')).toBe('');
    expect(websiteKeyOf(undefined)).toBe('');
    // The key's separator cannot make one business's key another's.
    expect(websiteKeyOf('https://bella.example/a|b')).not.toContain('|');
  });
});

const smbReport = (businessName: string, location: string, website: string) => JSON.stringify({ businessInfo: { businessName, location, website } });
const STORED = [
  // As migration 0016 (and the service before 0041) keyed them: name and location only.
  { id: 'b1', mode: 'smb', cache_key: 'smb|bella salon|danville, ca|https://bella.example', business_key: 'smb|bella salon|danville, ca|', report: smbReport('Bella Salon', 'Danville, CA', 'https://www.bella.example/') },
  { id: 'b2', mode: 'smb', cache_key: 'smb|bella salon|danville, ca|', business_key: 'smb|bella salon|danville, ca|', report: smbReport('Bella Salon', 'Danville, CA', 'https://bellasalon-danville.example/') },
  { id: 'b3', mode: 'smb', cache_key: 'smb|bella salon|danville, ca|', business_key: 'smb|bella salon|danville, ca|', report: smbReport('Bella Salon', 'Danville, CA', '') },
  { id: 'b4', mode: 'website', cache_key: 'website|https://bella.example|danville', business_key: 'website|https://bella.example|danville', report: smbReport('Bella Salon', 'Danville', 'https://bella.example/') },
] as const;

for (const backend of testBackends()) {
  describe(`migration 0041: the stored SMB analyses keyed on their website too (${backend.name})`, () => {
    let database: TestDatabase;
    beforeAll(async () => {
      database = await backend.open();
    });
    afterAll(async () => {
      await database?.dispose();
    });

    it('gives the rows stored before it the key the service gives new ones, and down takes it back', async () => {
      const db = database.handle.db;
      await db
        .insertInto('analyses')
        .values(STORED.map((r, i) => ({ ...r, created_at: `2026-0${i + 1}-01T00:00:00.000Z` })))
        .execute();
      await analysisBusinessWebsiteMigration.up(db);
      const keys = async () => Object.fromEntries((await db.selectFrom('analyses').select(['id', 'business_key']).execute()).map((r) => [r.id, r.business_key]));
      const expected = Object.fromEntries(STORED.map((r) => [r.id, businessKeyOf({ mode: r.mode, cacheKey: r.cache_key, report: JSON.parse(r.report) as never })]));
      expect(await keys()).toEqual(expected);
      expect(expected).toEqual({
        b1: 'smb|bella salon|danville, ca|bella.example',
        b2: 'smb|bella salon|danville, ca|bellasalon-danville.example',
        b3: 'smb|bella salon|danville, ca|',
        b4: 'website|https://bella.example|danville',
      });
      // Two businesses of one name in one town: each finds only its own earlier reports.
      const repo = createAnalysesRepository(db);
      const before = new Date('2027-01-01T00:00:00.000Z');
      expect((await repo.findEarlierOfBusiness(expected.b1!, before, 5)).map((a) => a.id)).toEqual(['b1']);
      expect((await repo.findEarlierOfBusiness(expected.b3!, before, 5)).map((a) => a.id)).toEqual(['b3']);

      await analysisBusinessWebsiteMigration.down!(db);
      expect(await keys()).toEqual(Object.fromEntries(STORED.map((r) => [r.id, r.business_key])));
    });
  });
}
