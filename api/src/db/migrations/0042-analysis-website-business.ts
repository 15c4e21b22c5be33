import type { Kysely } from 'kysely';
import { websiteKeyOf } from './0041-analysis-business-website';
import type { Migration } from './migration';
import { rekeyAnalyses } from './rekey-analyses';

/*
 * The business of a website-mode analysis is its website and location, the website compared as one however it is
 * written (`https://www.Bella.example/` and `bella.example` are one), as an SMB report's website has been since
 * migration 0041. Until now its key was the cache key (the URL exactly as normalised for the 24-hour cache), so
 * "Changes since your previous report" missed the earlier report of the same site typed another way. The key stays one
 * indexed column (analyses_business_key_created_at_idx, migration 0016); the website rows stored before this are
 * re-keyed here, in batches, with the rule as it was when this was written (analysis-service.ts `businessKeyOf` and
 * `websiteKeyParts`, copied so the migration stays frozen; `websiteKeyOf` is 0041's frozen copy). down gives them the
 * cache key again.
 */

const norm = (s: string | undefined) => (s ?? '').trim().toLowerCase().replace(/\s+/g, ' ');

function websiteKeyParts(cacheKey: string, reportLocation: string | undefined): { url: string; location: string } {
  const rest = cacheKey.startsWith('website|') ? cacheKey.slice('website|'.length) : cacheKey;
  for (const location of [norm(reportLocation), '']) {
    if (rest.endsWith(`|${location}`)) return { url: rest.slice(0, rest.length - location.length - 1), location };
  }
  const cut = rest.lastIndexOf('|');
  return cut < 0 ? { url: rest, location: '' } : { url: rest.slice(0, cut), location: rest.slice(cut + 1) };
}

function locationOf(reportJson: string): string | undefined {
  try {
    return (JSON.parse(reportJson) as { businessInfo?: { location?: string } }).businessInfo?.location;
  } catch {
    // An unreadable report: the cache key alone tells.
    return undefined;
  }
}

function websiteBusinessKey(cacheKey: string, reportJson: string): string {
  const { url, location } = websiteKeyParts(cacheKey, locationOf(reportJson));
  return `website|${websiteKeyOf(url)}|${location}`;
}

async function rekeyWebsiteRows(db: Kysely<any>, normalised: boolean): Promise<void> {
  await rekeyAnalyses(db, 'website', (row) => (normalised ? websiteBusinessKey(row.cache_key, row.report) : row.cache_key));
}

export const analysisWebsiteBusinessMigration: Migration = {
  name: '0042-analysis-website-business',
  async up(db: Kysely<any>) {
    await rekeyWebsiteRows(db, true);
  },
  async down(db: Kysely<any>) {
    await rekeyWebsiteRows(db, false);
  },
};
