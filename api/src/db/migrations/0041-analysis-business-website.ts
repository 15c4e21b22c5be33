import type { Kysely } from 'kysely';
import type { Migration } from './migration';
import { rekeyAnalyses } from './rekey-analyses';

/*
 * The business of an SMB analysis is its name, location and website (issue 54): "Changes since your previous report"
 * compared two businesses of one name in one town, each with its own website. The key stays one indexed column
 * (analyses_business_key_created_at_idx, migration 0016), so the lookup of earlier reports is the same index range;
 * the SMB rows stored before this are given the website part here, in batches, with the rule as it was when this was
 * written (analysis-service.ts `businessKeyOf` and `websiteKeyOf`), copied so the migration stays frozen. Website-mode
 * keys (the cache key: URL and location) are unchanged.
 */

const norm = (s: string | undefined) => (s ?? '').trim().toLowerCase().replace(/\s+/g, ' ');

/** Also migration 0042's (a website-mode report's website), frozen here. */
export function websiteKeyOf(website: string | undefined): string {
  const raw = (website ?? '').trim();
  if (!raw) return '';
  let key: string;
  try {
    const url = new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(raw) ? raw : `https://${raw}`);
    let path = url.pathname;
    while (path.endsWith('/')) path = path.slice(0, -1);
    key = `${url.host.toLowerCase().replace(/^www\./, '')}${path}`;
  } catch {
    const end = raw.search(/[?#]/);
    key = end >= 0 ? raw.slice(0, end) : raw;
    while (key.endsWith('/')) key = key.slice(0, -1);
  }
  return key.toLowerCase().replaceAll('|', '%7C');
}

type Info = { businessName?: string; location?: string; website?: string };

function infoOf(reportJson: string): Info {
  try {
    return (JSON.parse(reportJson) as { businessInfo?: Info }).businessInfo ?? {};
  } catch {
    // An unreadable report: keyed by what it has (nothing), as migration 0016 keyed it.
    return {};
  }
}

/** The name-and-location part (migration 0016's key), then the website's when `withWebsite`. */
function smbKeyOf(cacheKey: string, reportJson: string, withWebsite: boolean): string {
  const info = infoOf(reportJson);
  const withLocation = `smb|${norm(info.businessName)}|${norm(info.location)}|`;
  const base = cacheKey.startsWith(withLocation) ? withLocation : `smb|${norm(info.businessName)}||`;
  return withWebsite ? `${base}${websiteKeyOf(info.website)}` : base;
}

async function rekeySmbRows(db: Kysely<any>, withWebsite: boolean): Promise<void> {
  await rekeyAnalyses(db, 'smb', (row) => smbKeyOf(row.cache_key, row.report, withWebsite));
}

export const analysisBusinessWebsiteMigration: Migration = {
  name: '0041-analysis-business-website',
  async up(db: Kysely<any>) {
    await rekeySmbRows(db, true);
  },
  async down(db: Kysely<any>) {
    await rekeySmbRows(db, false);
  },
};
