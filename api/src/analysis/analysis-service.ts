import { randomBytes } from 'node:crypto';
import { FACTOR_KEYS, inferBusinessType, type AnalysisResponse, type FactorKey, type PreviousReport } from '@site/contracts/analysis';
import type { AnalysisFacts, AnalysisQuery, PlacesLookup, WebsiteLookup, YelpLookup } from './types';
import { createGooglePlacesProvider, searchTermFor, GOOGLE_PLACES_DEFAULT_BASE_URL, type PlacesProvider } from './providers/google-places';
import { createYelpProvider, YELP_DEFAULT_BASE_URL, YELP_FALLBACK_LOCATION, type YelpProvider } from './providers/yelp';
import type { FetchLike } from './providers/provider-error';
import { simulatePlaces, simulateWebsite, simulateYelp } from './simulation';
import { fetchWebsite, WebsiteRefusedError, type FetchWebsiteOptions } from './website/fetch-website';
import { createPageAnalyzer, PageTooComplexError, type PageAnalyzerOptions } from './website/page-analyzer';
import { buildReport, type AnalysisReport } from './report';
import type { AnalysisRepository, StoredAnalysis } from './analyses-repository';
import type { ChangeEvents } from '../db/in-transaction';

/*
 * Orchestration: the providers run in parallel, each under its own timeout (8 s by default); one that fails or
 * times out becomes evidence with an `error`, never a failed analysis. The website is fetched with the SSRF-safe
 * fetcher; only a refusal of a URL the visitor typed fails the request (the route answers 400).
 */

export const PROVIDER_TIMEOUT_MS = 8_000;
export const ANALYSIS_CACHE_TTL_MS = 24 * 60 * 60 * 1000;

export interface AnalysisEngineDeps {
  googlePlacesApiKey?: string;
  yelpApiKey?: string;
  googlePlacesBaseUrl?: string;
  yelpBaseUrl?: string;
  providerTimeoutMs?: number;
  website?: FetchWebsiteOptions;
  /** The fetched page is read on a worker thread under a time budget (page-analyzer.ts). */
  pageAnalysis?: PageAnalyzerOptions;
  fetchImpl?: FetchLike;
  clock?: () => Date;
}

export interface SmbInput {
  businessName: string;
  businessType?: string;
  location?: string;
  website?: string;
}

export interface WebsiteInput {
  url: string;
  location?: string;
}

async function withTimeout<T>(ms: number, run: (signal: AbortSignal) => Promise<T>, onTimeout: () => T): Promise<T> {
  const controller = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<T>((resolve) => {
    timer = setTimeout(() => {
      controller.abort();
      resolve(onTimeout());
    }, ms);
  });
  try {
    return await Promise.race([run(controller.signal), timeout]);
  } finally {
    clearTimeout(timer);
  }
}

export function createAnalysisEngine(deps: AnalysisEngineDeps) {
  const clock = deps.clock ?? (() => new Date());
  const now = () => clock().toISOString();
  const timeoutMs = deps.providerTimeoutMs ?? PROVIDER_TIMEOUT_MS;
  const pageAnalyzer = createPageAnalyzer(deps.pageAnalysis);
  const seconds = `${Math.round(timeoutMs / 100) / 10} s`;
  const places: PlacesProvider | null = deps.googlePlacesApiKey
    ? createGooglePlacesProvider({ apiKey: deps.googlePlacesApiKey, baseUrl: deps.googlePlacesBaseUrl, fetchImpl: deps.fetchImpl, clock })
    : null;
  const yelp: YelpProvider | null = deps.yelpApiKey
    ? createYelpProvider({ apiKey: deps.yelpApiKey, baseUrl: deps.yelpBaseUrl, fetchImpl: deps.fetchImpl, clock })
    : null;

  function lookupPlaces(query: AnalysisQuery): Promise<PlacesLookup> {
    if (!places) return Promise.resolve(simulatePlaces(query, now()));
    return withTimeout<PlacesLookup>(timeoutMs, (signal) => places.lookup(query, signal), () => ({
      searchTerm: searchTermFor(query),
      apiEndpoint: `POST ${(deps.googlePlacesBaseUrl ?? GOOGLE_PLACES_DEFAULT_BASE_URL).replace(/\/$/, '')}/v1/places:searchText`,
      dataSource: 'Google Places API (New)',
      checkedAt: now(),
      status: 'error',
      found: null,
      profile: null,
      competitors: null,
      competitorsError: null,
      error: `Google Places did not answer within ${seconds}`,
    }));
  }

  function lookupYelp(query: AnalysisQuery): Promise<YelpLookup> {
    if (!yelp) return Promise.resolve(simulateYelp(query, now()));
    return withTimeout<YelpLookup>(timeoutMs, (signal) => yelp.lookup(query, signal), () => ({
      searchTerm: `${query.businessName} ${query.location ?? YELP_FALLBACK_LOCATION}`,
      apiEndpoint: `GET ${(deps.yelpBaseUrl ?? YELP_DEFAULT_BASE_URL).replace(/\/$/, '')}/v3/businesses/search`,
      dataSource: 'Yelp Fusion API',
      checkedAt: now(),
      status: 'error',
      found: null,
      listing: null,
      error: `Yelp did not answer within ${seconds}`,
    }));
  }

  /** Reads a website; a refusal is rethrown only when the visitor typed the URL. */
  async function readWebsite(url: string, typedByVisitor: boolean): Promise<WebsiteLookup> {
    try {
      const page = await fetchWebsite(url, deps.website);
      return { status: 'live', url, facts: await pageAnalyzer.analyze(page), error: null, checkedAt: now() };
    } catch (error) {
      if (error instanceof WebsiteRefusedError && typedByVisitor) throw error;
      const message = error instanceof WebsiteRefusedError ? error.reason : (error as Error).message;
      const errorKind = error instanceof WebsiteRefusedError ? 'refused' : error instanceof PageTooComplexError ? 'too_complex' : 'unreachable';
      return { status: 'error', url, facts: null, error: message, errorKind, checkedAt: now() };
    }
  }

  async function websiteFromProfile(query: AnalysisQuery, p: PlacesLookup): Promise<WebsiteLookup> {
    const url = p.profile?.website;
    if (!url) return { status: 'not_applicable', url: null, facts: null, error: null, checkedAt: now() };
    if (p.status === 'simulated') return simulateWebsite(query, url, now());
    return readWebsite(url, false);
  }

  return {
    async analyzeSmb(input: SmbInput): Promise<AnalysisReport> {
      const query: AnalysisQuery = {
        businessName: input.businessName,
        businessType: input.businessType ?? inferBusinessType(input.businessName),
        location: input.location ?? null,
      };
      const typed = input.website ? readWebsite(input.website, true) : null;
      typed?.catch(() => undefined);
      const [p, y] = await Promise.all([lookupPlaces(query), lookupYelp(query)]);
      const website = typed ? await typed : await websiteFromProfile(query, p);
      const facts: AnalysisFacts = { query, places: p, yelp: y, website, mode: 'smb' };
      return buildReport(facts, now());
    },

    async analyzeWebsite(input: WebsiteInput): Promise<AnalysisReport> {
      const website = await readWebsite(input.url, true);
      const businessName = nameFromWebsite(website, input.url);
      const query: AnalysisQuery = { businessName, businessType: inferBusinessType(businessName), location: input.location ?? null };
      const [p, y] = await Promise.all([lookupPlaces(query), lookupYelp(query)]);
      return buildReport({ query, places: p, yelp: y, website, mode: 'website' }, now());
    },
  };
}

export type AnalysisEngine = ReturnType<typeof createAnalysisEngine>;

/** The business name a website gives itself: LocalBusiness name, og:site_name, the title's first part, or the host. */
export function nameFromWebsite(website: WebsiteLookup, url: string): string {
  const f = website.facts;
  const fromTitle = f?.title?.split(/\s[|–—-]\s/)[0]?.trim();
  const host = (() => {
    try {
      return new URL(url).hostname.replace(/^www\./, '');
    } catch {
      return url;
    }
  })();
  return (f?.localBusiness?.name || f?.siteName || fromTitle || host).slice(0, 120);
}

// ---------------------------------------------------------------------------------------------------------
// Storage and the 24-hour cache (the stored record and its repository's interface live in
// analysis/analyses-repository.ts)
// ---------------------------------------------------------------------------------------------------------

const norm = (s: string | undefined) => (s ?? '').trim().toLowerCase().replace(/\s+/g, ' ');

export function smbCacheKey(input: SmbInput): string {
  return `smb|${norm(input.businessName)}|${norm(input.location)}|${norm(input.website)}`;
}

export function websiteCacheKey(input: WebsiteInput): string {
  return `website|${norm(input.url)}|${norm(input.location)}`;
}

/** How often a permalink's opening is written (retention counts in months: a day is precise enough). */
const OPENED_WRITE_EVERY_MS = 24 * 60 * 60 * 1000;

/**
 * A report's website as one business's: the host in lower case without `www.` (and a port only when not the
 * default), then the path without trailing slashes; no scheme, query or fragment. So `https://www.Bella.example/`,
 * `http://bella.example` and `bella.example/?utm_source=gbp` are one website, `bella.example/danville` another.
 * Empty for a report with no website (or only a sample one). `|`, the key's separator, is escaped.
 */
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

/**
 * The URL and location a website-mode cache key was made of (`website|<url>|<location>`, websiteCacheKey). Either may
 * hold a `|`: the report's own location (or none, 'Unknown Location') tells where the URL ends; failing that, the last
 * `|` does.
 */
function websiteKeyParts(cacheKey: string, reportLocation: string | undefined): { url: string; location: string } {
  const rest = cacheKey.startsWith('website|') ? cacheKey.slice('website|'.length) : cacheKey;
  for (const location of [norm(reportLocation), '']) {
    if (rest.endsWith(`|${location}`)) return { url: rest.slice(0, rest.length - location.length - 1), location };
  }
  const cut = rest.lastIndexOf('|');
  return cut < 0 ? { url: rest, location: '' } : { url: rest.slice(0, cut), location: rest.slice(cut + 1) };
}

/**
 * The key shared by every report of one business, whatever its age: SMB mode by name, location and the report's
 * website (two businesses of one name in one town are two businesses: issue 54), website mode by the website and
 * location. A website is compared as one business's however it was written (websiteKeyOf: `https://www.Bella.example/`
 * and `bella.example` are one). A report without a website matches only another without one.
 */
export function businessKeyOf(stored: Pick<StoredAnalysis, 'mode' | 'cacheKey' | 'report'>): string {
  if (stored.mode === 'website') {
    const { url, location } = websiteKeyParts(stored.cacheKey, stored.report.businessInfo?.location);
    return `website|${websiteKeyOf(url)}|${location}`;
  }
  const { businessName, location, website } = stored.report.businessInfo;
  const withLocation = `smb|${norm(businessName)}|${norm(location)}|`;
  // A report without a location says 'Unknown Location'; its key has an empty location part.
  const base = stored.cacheKey.startsWith(withLocation) ? withLocation : `smb|${norm(businessName)}||`;
  return `${base}${websiteKeyOf(website)}`;
}

/** A stored score counts simulated figures (reports stored before `sample` existed: a counted simulated signal). */
function isSampleScore(score: AnalysisReport['scores'][FactorKey | 'overall']): boolean {
  return score.sample ?? (score.evidence.signals ?? []).some((s) => s.status === 'simulated');
}

/**
 * The scores of a report, as the `previous` of a later one. An unmeasured or sample score is null: a change from it
 * would be a change of data source, not of the business.
 */
function previousOf(stored: StoredAnalysis): PreviousReport {
  const all = stored.report.scores;
  const anySample = FACTOR_KEYS.some((k) => isSampleScore(all[k]));
  const scores = Object.fromEntries(
    [...FACTOR_KEYS, 'overall' as const].map((key) => {
      const s = all[key];
      const sample = key === 'overall' ? anySample : isSampleScore(s);
      return [key, s.verified && !sample ? s.score : null];
    }),
  ) as PreviousReport['scores'];
  return { id: stored.id, analyzedAt: stored.report.analyzedAt, scores };
}

/** A stored analysis's time as the owner reads it, in the businesses' own time zone (the East Bay), like the scorecard's dates. */
function whenStored(date: Date): string {
  return date.toLocaleString('en-US', { timeZone: 'America/Los_Angeles', month: 'long', day: 'numeric', year: 'numeric', hour: 'numeric', minute: '2-digit', timeZoneName: 'short' });
}

export interface AnalysisServiceDeps {
  engine: AnalysisEngine;
  repository: AnalysisRepository;
  clock?: () => Date;
  newId?: () => string;
  cacheTtlMs?: number;
  /** Each new (not cached) report's event (outgoing webhooks' `analysis.completed`), written in the report's transaction. */
  events?: ChangeEvents<StoredAnalysis>;
}

export function createAnalysisService(deps: AnalysisServiceDeps) {
  const clock = deps.clock ?? (() => new Date());
  const newId = deps.newId ?? (() => randomBytes(12).toString('base64url'));
  const ttl = deps.cacheTtlMs ?? ANALYSIS_CACHE_TTL_MS;

  /** The latest earlier report of the same business (any age), or null: what the scorecard compares against. */
  async function findPrevious(stored: StoredAnalysis): Promise<PreviousReport | null> {
    const key = businessKeyOf(stored);
    const candidates = await deps.repository.findEarlierOfBusiness(key, stored.createdAt, 5);
    const earlier = candidates.find((c) => c.id !== stored.id && c.mode === stored.mode);
    return earlier ? previousOf(earlier) : null;
  }

  const answer = async (stored: StoredAnalysis, cached: boolean): Promise<AnalysisResponse> => ({
    id: stored.id,
    cached,
    ...(cached
      ? { cacheNote: `Stored analysis from ${whenStored(stored.createdAt)}: the same business and location are re-analyzed after 24 hours.` }
      : {}),
    ...stored.report,
    previous: await findPrevious(stored),
  });

  async function cachedOrRun(cacheKey: string, mode: 'smb' | 'website', run: () => Promise<AnalysisReport>): Promise<AnalysisResponse> {
    const since = new Date(clock().getTime() - ttl);
    const hit = await deps.repository.findLatestByCacheKey(cacheKey, since);
    if (hit) return answer(hit, true);
    const report = await run();
    const stored: StoredAnalysis = { id: newId(), cacheKey, mode, businessKey: businessKeyOf({ mode, cacheKey, report }), createdAt: clock(), report };
    await deps.repository.insert(stored, deps.events?.inTransaction(stored));
    deps.events?.committed();
    return answer(stored, false);
  }

  return {
    analyzeSmb: (input: SmbInput) => cachedOrRun(smbCacheKey(input), 'smb', () => deps.engine.analyzeSmb(input)),
    analyzeWebsite: (input: WebsiteInput) => cachedOrRun(websiteCacheKey(input), 'website', () => deps.engine.analyzeWebsite(input)),
    async getAnalysis(id: string): Promise<AnalysisResponse | undefined> {
      const stored = await deps.repository.findById(id);
      if (!stored) return undefined;
      // Opened: retention keeps it a while longer. Written at most once a day per analysis, never in the answer's way.
      const now = clock();
      if (!stored.openedAt || now.getTime() - stored.openedAt.getTime() > OPENED_WRITE_EVERY_MS) {
        void deps.repository.markOpened(id, now).catch(() => undefined);
      }
      return answer(stored, false);
    },
  };
}

export type AnalysisService = ReturnType<typeof createAnalysisService>;
