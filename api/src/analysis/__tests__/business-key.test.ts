import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { analysisBusinessKeyMigration } from '../../db/migrations/0016-analysis-business-key';
import { analysisBusinessWebsiteMigration } from '../../db/migrations/0041-analysis-business-website';
import { analysisWebsiteBusinessMigration } from '../../db/migrations/0042-analysis-website-business';
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
      // SMB rows by name and location as the service named them then; website rows by their cache key (0042 re-keys them).
      const expected: Array<{ id: string; business_key: string }> = ROWS.filter((r) => r.mode === 'smb' && r.id !== 's3').map((r) => ({
        id: r.id,
        business_key: businessKeyOf({ mode: r.mode, cacheKey: r.cache_key, report: JSON.parse(r.report) as never }).replace(/\|[^|]*$/, '|'),
      }));
      expected.push({ id: 'w1', business_key: 'website|https://salon.example|danville' });
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

const websiteReport = (location: string) => JSON.stringify({ businessInfo: { businessName: 'Bella Salon', location, website: 'https://bella.example/' } });
const WEBSITE_ROWS = [
  // As the service keyed them before 0042: the cache key, the URL as normalised for the 24-hour cache.
  { id: 'v1', mode: 'website', cache_key: 'website|https://www.bella.example/|danville, ca', report: websiteReport('Danville, CA') },
  { id: 'v2', mode: 'website', cache_key: 'website|http://bella.example|danville, ca', report: websiteReport('Danville, CA') },
  { id: 'v3', mode: 'website', cache_key: 'website|https://bella.example/spa/?utm=x|danville, ca', report: websiteReport('Danville, CA') },
  // No location: the report says 'Unknown Location', the key has an empty part.
  { id: 'v4', mode: 'website', cache_key: 'website|https://bella.example|', report: websiteReport('Unknown Location') },
  // A `|` in both the URL and the location: the report's location says where the URL ends.
  { id: 'v5', mode: 'website', cache_key: 'website|https://bella.example/a|b|walnut | creek', report: websiteReport('Walnut | Creek') },
  { id: 'v6', mode: 'website', cache_key: 'website|https://bella.example|danville, ca', report: '{not json' },
  { id: 'v7', mode: 'smb', cache_key: 'smb|bella salon|danville, ca|', report: smbReport('Bella Salon', 'Danville, CA', '') },
] as const;

describe('the business of a website-mode report', () => {
  it('is its website however it is written, and its location', () => {
    const key = (cacheKey: string, location = 'Danville, CA') => businessKeyOf({ mode: 'website', cacheKey, report: JSON.parse(websiteReport(location)) as never });
    expect(key('website|https://www.bella.example/|danville, ca')).toBe('website|bella.example|danville, ca');
    expect(key('website|http://bella.example|danville, ca')).toBe('website|bella.example|danville, ca');
    expect(key('website|https://bella.example/spa|danville, ca')).toBe('website|bella.example/spa|danville, ca');
    expect(key('website|https://bella.example|dublin, ca', 'Dublin, CA')).toBe('website|bella.example|dublin, ca');
    expect(key('website|https://bella.example|', 'Unknown Location')).toBe('website|bella.example|');
    expect(key('website|https://bella.example/a|b|walnut | creek', 'Walnut | Creek')).toBe('website|bella.example/a%7Cb|walnut | creek');
  });
});

/** The business key of each stored analysis whose id starts with `prefix`, by id. */
async function storedKeys(db: TestDatabase['handle']['db'], prefix: string): Promise<Record<string, string | null>> {
  const rows = await db.selectFrom('analyses').select(['id', 'business_key']).where('id', 'like', `${prefix}%`).execute();
  return Object.fromEntries(rows.map((r) => [r.id, r.business_key]));
}

/** The key the service gives each row, by id (an unreadable report read as one without business details). */
function serviceKeys(rows: ReadonlyArray<{ id: string; mode: string; cache_key: string; report: string }>): Record<string, string> {
  const parse = (json: string) => {
    try {
      return JSON.parse(json);
    } catch {
      return { businessInfo: {} };
    }
  };
  return Object.fromEntries(rows.map((r) => [r.id, businessKeyOf({ mode: r.mode as 'smb' | 'website', cacheKey: r.cache_key, report: parse(r.report) as never })]));
}

for (const backend of testBackends()) {
  describe(`migrations 0041 and 0042: the stored analyses keyed on their website (${backend.name})`, () => {
    let database: TestDatabase;
    beforeAll(async () => {
      database = await backend.open();
    });
    afterAll(async () => {
      await database?.dispose();
    });

    it('0041 gives the SMB rows stored before it the key the service gives new ones, and down takes it back', async () => {
      const db = database.handle.db;
      await db
        .insertInto('analyses')
        .values(STORED.map((r, i) => ({ ...r, created_at: `2026-0${i + 1}-01T00:00:00.000Z` })))
        .execute();
      await analysisBusinessWebsiteMigration.up(db);
      const keys = () => storedKeys(db, 'b');
      const expected: Record<string, string | null> = { ...serviceKeys(STORED), b4: STORED[3].business_key };
      expect(await keys()).toEqual(expected);
      expect(expected).toEqual({
        b1: 'smb|bella salon|danville, ca|bella.example',
        b2: 'smb|bella salon|danville, ca|bellasalon-danville.example',
        b3: 'smb|bella salon|danville, ca|',
        // Website rows are 0042's.
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

    it('0042 gives the website rows stored before it the key the service gives new ones, and down takes it back', async () => {
      const db = database.handle.db;
      await db
        .insertInto('analyses')
        .values(WEBSITE_ROWS.map((r, i) => ({ ...r, business_key: r.mode === 'website' ? r.cache_key : 'smb|bella salon|danville, ca|', created_at: `2026-0${i + 1}-01T00:00:00.000Z` })))
        .execute();
      const keys = () => storedKeys(db, 'v');
      await analysisWebsiteBusinessMigration.up(db);
      const service = serviceKeys(WEBSITE_ROWS);
      expect(await keys()).toEqual(service);
      expect(service).toEqual({
        v1: 'website|bella.example|danville, ca',
        v2: 'website|bella.example|danville, ca',
        v3: 'website|bella.example/spa|danville, ca',
        v4: 'website|bella.example|',
        v5: 'website|bella.example/a%7Cb|walnut | creek',
        v6: 'website|bella.example|danville, ca',
        v7: 'smb|bella salon|danville, ca|',
      });
      // The same site typed two ways is one business's history; another page of it is another.
      const ofBusiness = await db.selectFrom('analyses').select('id').where('business_key', '=', service.v1!).orderBy('created_at', 'desc').execute();
      expect(ofBusiness.map((r) => r.id)).toEqual(['v6', 'v2', 'v1']);

      await analysisWebsiteBusinessMigration.down!(db);
      expect(await keys()).toEqual(Object.fromEntries(WEBSITE_ROWS.map((r) => [r.id, r.mode === 'website' ? r.cache_key : 'smb|bella salon|danville, ca|'])));
    });
  });
}

