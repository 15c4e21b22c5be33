import {
  FACTOR_KEYS,
  INSIGHT_MARKERS,
  MIN_MEASURED_FACTORS,
  NO_DATA_COLOR,
  NOT_ENOUGH_DATA_LABEL,
  NOT_MEASURED_LABEL,
  SAMPLE_SCORE_COLOR,
  SAMPLE_SCORE_LABEL,
  scoreColor,
  scoreLabel,
  type FactorKey,
} from '@site/contracts/analysis';
import type { AnalysisFacts, Competitor, PlacesLookup, SourceStatus, WebsiteFacts, WebsiteLookup, YelpLookup } from './types';
import { nameSimilarity, NAME_MATCH_THRESHOLD } from './providers/provider-error';
import { ownValue } from '../lib/own-key';

/*
 * The scoring model: one table of signals, each worth a fixed number of points (100 in all).
 * A signal is verified (real data), simulated (no key: flagged) or unverified (provider failed, nothing known).
 * - factor score = round(100 × earned / possible) over its verified + simulated signals; unverified signals are
 *   left out, so a failing provider neither helps nor hurts. A factor with nothing to count is 'Not measured'.
 * - a score that counts any simulated signal is a sample ('Sample score'): an example, never the business's standing.
 * - overall score = the same ratio over every counted signal of all six factors (so each factor weighs its points);
 *   unmeasured factors are left out, and with fewer than 3 of 6 measured there is no overall score at all.
 * - dataPoints = points of signals backed by real data; totalPossiblePoints = the points the factor could hold.
 * Adding a verified signal that earns its full points can never lower a factor: (e + p) / (m + p) >= e / m.
 */

export type SignalStatus = 'verified' | 'simulated' | 'unverified';

export interface Signal {
  key: string;
  factor: FactorKey;
  label: string;
  maxPoints: number;
  status: SignalStatus;
  /** Share of the points earned, 0..1 (ignored when unverified). */
  fraction: number;
  /** Plain-language finding without marker; empty to say nothing. */
  insight: string;
  /** Human-readable value, for the evidence details. */
  value?: string | number | boolean | null;
  source?: string;
  /** Unverified only: why, naming the first cause (site not reachable, provider error, no location, no key…). */
  reason?: string;
}

export interface SignalSpec {
  factor: FactorKey;
  label: string;
  points: number;
  measures: string;
}

/** The scoring table (also in docs/operating.md). Points add up to 100. */
export const SIGNALS = {
  googleProfile: { factor: 'visibility', label: 'Google Business Profile', points: 8, measures: 'A Google Business Profile matching the name is found (Places text search)' },
  yelpListing: { factor: 'visibility', label: 'Yelp listing', points: 6, measures: 'A Yelp listing matching the name is found' },
  citationConsistency: { factor: 'visibility', label: 'Citation consistency', points: 3, measures: 'Name, address and phone agree between Google, Yelp and the website\'s LocalBusiness data (share of comparisons that match)' },
  socialLinks: { factor: 'visibility', label: 'Social profiles linked', points: 3, measures: 'The website links to Facebook, Instagram or LinkedIn (2+ = full, 1 = half)' },
  googleRating: { factor: 'reputation', label: 'Google rating', points: 7, measures: 'Google star rating, 3.0 = 0 to 4.8+ = full' },
  googleReviews: { factor: 'reputation', label: 'Google review count', points: 6, measures: 'Number of Google reviews on a log scale, 150+ = full' },
  yelpRating: { factor: 'reputation', label: 'Yelp rating', points: 4, measures: 'Yelp star rating, 3.0 = 0 to 4.8+ = full' },
  yelpReviews: { factor: 'reputation', label: 'Yelp review count', points: 3, measures: 'Number of Yelp reviews on a log scale, 100+ = full' },
  openingHours: { factor: 'profileQuality', label: 'Opening hours', points: 4, measures: 'Regular opening hours on the Google profile' },
  photos: { factor: 'profileQuality', label: 'Photos', points: 3, measures: 'Photos on the Google profile, 10+ = full' },
  phone: { factor: 'profileQuality', label: 'Phone number', points: 3, measures: 'A phone number on the Google profile' },
  profileWebsite: { factor: 'profileQuality', label: 'Website on profile', points: 2, measures: 'A website linked from the Google profile' },
  operational: { factor: 'profileQuality', label: 'Business status', points: 3, measures: 'Google lists the business as operational' },
  https: { factor: 'websiteTrust', label: 'HTTPS', points: 6, measures: 'The website ends on an https:// page' },
  securityHeaders: { factor: 'websiteTrust', label: 'Security headers', points: 5, measures: 'HSTS, Content-Security-Policy, X-Content-Type-Options, X-Frame-Options/frame-ancestors (share present)' },
  performance: { factor: 'websiteTrust', label: 'Performance', points: 5, measures: 'Server response time and page weight measured by our fetch (performance score / 100)' },
  mobileViewport: { factor: 'websiteTrust', label: 'Mobile viewport', points: 2, measures: 'A responsive viewport meta tag' },
  structuredData: { factor: 'websiteTrust', label: 'Structured data', points: 2, measures: 'LocalBusiness JSON-LD (other structured data = half)' },
  title: { factor: 'contentQuality', label: 'Page title', points: 2, measures: 'A title of 10-70 characters (other lengths = half)' },
  metaDescription: { factor: 'contentQuality', label: 'Meta description', points: 3, measures: 'A meta description of 50-160 characters (other lengths = half)' },
  headings: { factor: 'contentQuality', label: 'Headings', points: 2, measures: 'One H1 (several = 3/4, only H2s = half)' },
  imageAlt: { factor: 'contentQuality', label: 'Image alt text', points: 2, measures: 'Share of images with alt text (no images = full)' },
  wordCount: { factor: 'contentQuality', label: 'Content depth', points: 2, measures: 'Visible words on the page, 300+ = full' },
  contactDetails: { factor: 'contentQuality', label: 'Contact details', points: 2, measures: 'A phone number (half) and an email or contact form (half) on the page' },
  booking: { factor: 'contentQuality', label: 'Online booking/ordering', points: 2, measures: 'A booking, reservation or ordering link or widget' },
  ratingPercentile: { factor: 'competitiveIntelligence', label: 'Rating vs local competitors', points: 5, measures: 'Percentile of the Google rating among same-type businesses in the location' },
  reviewPercentile: { factor: 'competitiveIntelligence', label: 'Reviews vs local competitors', points: 5, measures: 'Percentile of the Google review count among same-type businesses in the location' },
} as const satisfies Record<string, SignalSpec>;

export type SignalKey = keyof typeof SIGNALS;

export const FACTOR_POINTS: Record<FactorKey, number> = Object.fromEntries(
  FACTOR_KEYS.map((f) => [f, Object.values(SIGNALS).filter((s) => s.factor === f).reduce((n, s) => n + s.points, 0)]),
) as Record<FactorKey, number>;

export const SCORING_MODEL_VERSION = 'scorecard-v1';

export interface FactorResult {
  score: number;
  label: string;
  color: string;
  /** Something could be counted (false: 'Not measured', or for the overall score 'Not enough data'). */
  verified: boolean;
  /** The score counts simulated signals. */
  sample: boolean;
  dataPoints: number;
  totalPossiblePoints: number;
  /** Overall only: the factors it is based on. */
  factorsMeasured?: number;
}

const clamp01 = (n: number) => (Number.isFinite(n) ? Math.min(1, Math.max(0, n)) : 0);

/** Score of a set of signals (a factor, or all of them for the overall score). */
export function scoreSignals(signals: readonly Signal[], totalPossiblePoints: number): FactorResult {
  let earnedMilli = 0;
  let possibleMilli = 0;
  let dataPoints = 0;
  let sample = false;
  for (const s of signals) {
    if (s.status === 'unverified') continue;
    // Integer arithmetic (thousandths of a point) keeps rounding monotone.
    earnedMilli += Math.round(clamp01(s.fraction) * 1000) * s.maxPoints;
    possibleMilli += 1000 * s.maxPoints;
    if (s.status === 'verified') dataPoints += s.maxPoints;
    else sample = true;
  }
  if (possibleMilli === 0) {
    return { score: 0, label: NOT_MEASURED_LABEL, color: NO_DATA_COLOR, verified: false, sample: false, dataPoints: 0, totalPossiblePoints };
  }
  const score = Math.round((100 * earnedMilli) / possibleMilli);
  return {
    score,
    label: sample ? SAMPLE_SCORE_LABEL : scoreLabel(score),
    color: sample ? SAMPLE_SCORE_COLOR : scoreColor(score),
    verified: true,
    sample,
    dataPoints,
    totalPossiblePoints,
  };
}

export function scoreAll(signals: readonly Signal[]): Record<FactorKey | 'overall', FactorResult> {
  const result = {} as Record<FactorKey | 'overall', FactorResult>;
  for (const f of FACTOR_KEYS) result[f] = scoreSignals(signals.filter((s) => s.factor === f), FACTOR_POINTS[f]);
  const factorsMeasured = FACTOR_KEYS.filter((f) => result[f].verified).length;
  const overall = scoreSignals(signals, 100);
  result.overall =
    factorsMeasured >= MIN_MEASURED_FACTORS
      ? { ...overall, factorsMeasured }
      : // Two factors say too little about a business to grade it: no number rather than a misleading one.
        { ...overall, score: 0, label: NOT_ENOUGH_DATA_LABEL, color: NO_DATA_COLOR, verified: false, factorsMeasured };
  return result;
}

/** Insight text with its leading marker. */
export function insightFor(signal: Signal): string | null {
  if (!signal.insight) return null;
  if (signal.status === 'unverified') return `${INSIGHT_MARKERS.warning} ${signal.insight}`;
  const marker = signal.fraction >= 0.8 ? INSIGHT_MARKERS.check : signal.fraction >= 0.4 ? INSIGHT_MARKERS.warning : INSIGHT_MARKERS.cross;
  return `${marker} ${signal.insight}${signal.status === 'simulated' ? ' (sample data)' : ''}`;
}

// ---------------------------------------------------------------------------------------------------------
// Measures used by several signals
// ---------------------------------------------------------------------------------------------------------

export const ratingFraction = (rating: number | null) => (rating === null ? 0 : clamp01((rating - 3) / 1.8));
export const reviewFraction = (count: number, fullAt: number) => clamp01(Math.log10(Math.max(0, count) + 1) / Math.log10(fullAt + 1));

/** Share (0-100) of competitors strictly below the value, ties counted half. */
export function percentile(value: number, others: readonly number[]): number {
  if (others.length === 0) return 0;
  let below = 0;
  for (const o of others) below += o < value ? 1 : o === value ? 0.5 : 0;
  return Math.round((100 * below) / others.length);
}

export function gradeFor(score: number): string {
  if (score >= 90) return 'A';
  if (score >= 80) return 'B';
  if (score >= 70) return 'C';
  if (score >= 60) return 'D';
  return 'F';
}

/** Server-side performance: response time tier and page weight (not a browser lab test). */
export function performanceScore(responseTimeMs: number, bytes: number): number {
  const timePenalty = responseTimeMs > 4000 ? 65 : responseTimeMs > 2000 ? 45 : responseTimeMs > 1000 ? 25 : responseTimeMs > 500 ? 10 : 0;
  const sizePenalty = bytes > 1024 * 1024 ? 20 : bytes > 512 * 1024 ? 10 : 0;
  return Math.max(0, 100 - timePenalty - sizePenalty);
}

/** HTTPS 40 points, then 15 for each of the four security headers. */
export function securityScore(facts: WebsiteFacts): number {
  const h = facts.securityHeaders;
  return (facts.https ? 40 : 0) + 15 * [h.hsts, h.csp, h.xContentTypeOptions, h.frameProtection].filter(Boolean).length;
}

const normPhone = (p: string) => p.replace(/\D/g, '').slice(-10);
const ADDRESS_WORDS: Record<string, string> = { street: 'st', avenue: 'ave', road: 'rd', boulevard: 'blvd', drive: 'dr', suite: 'ste', north: 'n', south: 's', east: 'e', west: 'w', mount: 'mt', parkway: 'pkwy' };
const addressKey = (a: string) =>
  (a.split(',')[0] ?? '')
    .toLowerCase()
    .replace(/[^a-z0-9 ]/g, ' ')
    .split(/\s+/)
    .filter(Boolean)
    .map((w) => ownValue(ADDRESS_WORDS, w) ?? w)
    .slice(0, 3)
    .join(' ');

export interface CitationComparison {
  field: 'name' | 'phone' | 'address';
  a: { source: string; value: string };
  b: { source: string; value: string };
  match: boolean;
  simulated: boolean;
}

/** Name/address/phone comparisons between every two sources that hold the field (never real against simulated). */
export function citationComparisons(facts: AnalysisFacts): CitationComparison[] {
  type Nap = { source: string; simulated: boolean; name: string | null; phone: string | null; address: string | null };
  const sources: Nap[] = [];
  const { places, yelp, website } = facts;
  if (places.profile) sources.push({ source: 'Google', simulated: places.status === 'simulated', name: places.profile.name, phone: places.profile.phone, address: places.profile.address });
  if (yelp.listing) sources.push({ source: 'Yelp', simulated: yelp.status === 'simulated', name: yelp.listing.name, phone: yelp.listing.phone, address: yelp.listing.address });
  const lb = website.facts?.localBusiness;
  if (lb) sources.push({ source: 'Website', simulated: website.status === 'simulated', name: lb.name, phone: lb.telephone, address: lb.address });
  const out: CitationComparison[] = [];
  for (let i = 0; i < sources.length; i++) {
    for (let j = i + 1; j < sources.length; j++) {
      const a = sources[i]!;
      const b = sources[j]!;
      if (a.simulated !== b.simulated) continue;
      for (const field of ['name', 'phone', 'address'] as const) {
        const va = a[field];
        const vb = b[field];
        if (!va || !vb) continue;
        const match =
          field === 'name' ? nameSimilarity(va, vb) >= NAME_MATCH_THRESHOLD : field === 'phone' ? normPhone(va) === normPhone(vb) : addressKey(va) === addressKey(vb);
        out.push({ field, a: { source: a.source, value: va }, b: { source: b.source, value: vb }, match, simulated: a.simulated });
      }
    }
  }
  return out;
}

// ---------------------------------------------------------------------------------------------------------
// From facts to signals
// ---------------------------------------------------------------------------------------------------------

const statusOf = (s: SourceStatus): SignalStatus => (s === 'live' ? 'verified' : s === 'simulated' ? 'simulated' : 'unverified');

function sig(key: SignalKey, status: SignalStatus, fraction: number, insight: string, value?: Signal['value'], source?: string): Signal {
  const spec = SIGNALS[key];
  return { key, factor: spec.factor, label: spec.label, maxPoints: spec.points, status, fraction: status === 'unverified' ? 0 : clamp01(fraction), insight, value, ...(status === 'simulated' && source ? { source } : {}) };
}

/** A signal that could not be counted: its own reason (the first cause), and an insight line when `insight` is given. */
function notCounted(key: SignalKey, reason: string, insight = ''): Signal {
  return { ...sig(key, 'unverified', 0, insight), reason };
}

// ---------------------------------------------------------------------------------------------------------
// Why something could not be counted, in the owner's words: the first cause in the chain
// ---------------------------------------------------------------------------------------------------------

const withoutStop = (text: string) => text.trim().replace(/\.$/, '');
const lowerFirst = (text: string) => (/^[A-Z][a-z]/.test(text) ? text.charAt(0).toLowerCase() + text.slice(1) : text);

/** Socket error codes as an owner would say them. */
const CONNECTION_WORDS: Record<string, string> = {
  ECONNREFUSED: 'its server refused the connection',
  ECONNRESET: 'its server dropped the connection',
  ETIMEDOUT: 'it did not answer in time',
  EHOSTUNREACH: 'its server cannot be reached from here',
  ENETUNREACH: 'its server cannot be reached from here',
  EPROTO: 'its secure connection could not be set up',
  CERT_HAS_EXPIRED: 'its security certificate has expired',
  DEPTH_ZERO_SELF_SIGNED_CERT: 'its security certificate is not trusted',
  SELF_SIGNED_CERT_IN_CHAIN: 'its security certificate is not trusted',
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: 'its security certificate is not trusted',
  ERR_TLS_CERT_ALTNAME_INVALID: 'its security certificate is for another name',
};

/** What went wrong reaching the website, without the fetcher's jargon. */
function unreachableWords(error: string): string {
  const detail = withoutStop(error);
  const timeout = /did not answer within (\d+) seconds/.exec(detail);
  if (timeout) return `it did not answer within ${timeout[1]} seconds`;
  if (/could not be resolved/.test(detail)) return 'its address was not found';
  const status = /answered HTTP (\d{3})/.exec(detail);
  if (status) return `it answered with an error (HTTP ${status[1]})`;
  const refused = /could not be reached \(([^)]*)\)/.exec(detail);
  if (refused) return ownValue(CONNECTION_WORDS, refused[1]!) ?? `the connection failed (${refused[1]})`;
  return lowerFirst(detail);
}

/** Why the website could not be read: not reachable, too large or complex, or an address we may not visit. */
export function websiteProblem(website: Pick<WebsiteLookup, 'error' | 'errorKind'>): string {
  const error = website.error ?? 'unknown error';
  if (website.errorKind === 'too_complex' || /too large or complex/i.test(error)) {
    const why = withoutStop(error.replace(/^This page is too large or complex to analyze:?\s*/i, ''));
    return `the website's page is too large or complex to analyze${why ? ` (${why})` : ''}`;
  }
  if (website.errorKind === 'refused') return `the website address cannot be analyzed (${lowerFirst(withoutStop(error))})`;
  return `the website could not be reached (${unreachableWords(error)})`;
}

export const googleFailed = (places: Pick<PlacesLookup, 'error'>) => `Google could not be checked (${withoutStop(places.error ?? 'no answer')})`;
export const yelpFailed = (yelp: Pick<YelpLookup, 'error'>) => `Yelp could not be checked (${withoutStop(yelp.error ?? 'no answer')})`;

/** What we know about the website's existence when no page was read. */
function websiteAbsence(facts: AnalysisFacts): { status: SignalStatus; reason: string; listed: string; source?: string } {
  const { places, website } = facts;
  if (website.status === 'error') {
    const reason = websiteProblem(website);
    return { status: 'unverified', reason, listed: reason };
  }
  if (places.profile && !places.profile.website) {
    const reason = 'No website is listed on the Google profile';
    return { status: statusOf(places.status), reason, listed: reason, source: places.source };
  }
  const reason =
    places.status === 'error'
      ? `no website was entered, and ${googleFailed(places)} to find one`
      : places.status === 'simulated'
        ? 'no website was entered, and without a Google Places key there is no real Google profile to find one on'
        : 'no website was entered, and no Google profile was found to take one from';
  return { status: 'unverified', reason, listed: reason };
}

/** Why name, address and phone could not be compared: each missing source's own cause, in order. */
function citationGap(facts: AnalysisFacts): string {
  const { places, yelp, website } = facts;
  const sources = [
    {
      name: 'Google',
      present: Boolean(places.profile),
      simulated: places.status === 'simulated',
      missing: places.status === 'error' ? googleFailed(places) : 'no Google profile was found',
    },
    {
      name: 'Yelp',
      present: Boolean(yelp.listing),
      simulated: yelp.status === 'simulated',
      missing: yelp.status === 'error' ? yelpFailed(yelp) : 'no Yelp listing was found',
    },
    {
      name: 'the website',
      present: Boolean(website.facts?.localBusiness),
      simulated: website.status === 'simulated',
      missing:
        website.status === 'error'
          ? websiteProblem(website)
          : !website.facts
            ? 'no website was analyzed'
            : 'the website does not state its name, address and phone as LocalBusiness data',
    },
  ];
  const present = sources.filter((s) => s.present);
  if (present.length >= 2) {
    // Two sources, but one real and one sample: comparing them would prove nothing.
    const sampleOnes = present.filter((s) => s.simulated).map((s) => s.name);
    if (sampleOnes.length === 0) return 'the sources found hold no name, address or phone in common';
    return `real data is never compared with sample data (${sampleOnes.join(' and ')}: no key configured)`;
  }
  return `it needs the same details from two sources, and ${sources
    .filter((s) => !s.present)
    .map((s) => s.missing)
    .join('; ')}`;
}

export function buildSignals(facts: AnalysisFacts): Signal[] {
  const out: Signal[] = [];
  const { places, yelp, website, query } = facts;
  const pStatus = statusOf(places.status);
  const pSource = places.source;
  const yStatus = statusOf(yelp.status);
  const ySource = yelp.source;
  const gFailed = googleFailed(places);
  const yFailed = yelpFailed(yelp);

  // Visibility
  if (places.status === 'error') out.push(notCounted('googleProfile', gFailed, `Google Business Profile could not be verified: ${places.error}`));
  else out.push(sig('googleProfile', pStatus, places.found ? 1 : 0, places.found ? 'Google Business Profile found' : `No Google Business Profile found for "${places.searchTerm}"`, Boolean(places.found), pSource));
  if (yelp.status === 'error') out.push(notCounted('yelpListing', yFailed, `Yelp listing could not be verified: ${yelp.error}`));
  else out.push(sig('yelpListing', yStatus, yelp.found ? 1 : 0, yelp.found ? 'Listed on Yelp' : `No Yelp listing found for "${yelp.searchTerm}"`, Boolean(yelp.found), ySource));

  const comparisons = citationComparisons(facts);
  if (comparisons.length === 0) {
    const gap = citationGap(facts);
    out.push(notCounted('citationConsistency', `name, address and phone could not be compared: ${gap}`, `Name, address and phone could not be compared: ${gap}`));
  } else {
    const matches = comparisons.filter((c) => c.match).length;
    const mismatches = comparisons.filter((c) => !c.match);
    const simulated = comparisons.some((c) => c.simulated);
    const text =
      mismatches.length === 0
        ? `Name, address and phone agree across ${comparisons.length} comparisons`
        : `${matches} of ${comparisons.length} name/address/phone checks agree; ` +
          mismatches.map((m) => `${m.field} on ${m.b.source} (${m.b.value}) differs from ${m.a.source} (${m.a.value})`).join('; ');
    out.push(sig('citationConsistency', simulated ? 'simulated' : 'verified', matches / comparisons.length, text, Math.round((100 * matches) / comparisons.length), simulated ? pSource ?? ySource : undefined));
  }

  if (website.facts && website.status === 'live') {
    const links = Object.entries(website.facts.socialLinks).filter(([, v]) => v).map(([k]) => k);
    out.push(sig('socialLinks', 'verified', links.length >= 2 ? 1 : links.length === 1 ? 0.5 : 0, links.length ? `Website links to ${links.join(', ')}` : 'Website does not link to any social profile', links.length));
  } else if (website.status === 'simulated') {
    out.push(notCounted('socialLinks', 'the website is sample data (no Google Places key configured to find the real one), so its links cannot be read', 'Social profile links need the real website (sample data here)'));
  } else {
    const absent = websiteAbsence(facts);
    if (absent.status === 'unverified') out.push(notCounted('socialLinks', absent.reason, website.status === 'error' ? `Social profile links not checked: ${absent.reason}` : ''));
    else out.push(sig('socialLinks', absent.status, 0, 'No website to link social profiles from', null, absent.source));
  }

  // Reputation
  if (places.status === 'error') {
    out.push(notCounted('googleRating', gFailed, `Google reviews could not be verified: ${places.error}`));
    out.push(notCounted('googleReviews', gFailed));
  } else if (!places.profile) {
    out.push(sig('googleRating', pStatus, 0, 'No Google reviews (no Google profile found)', null, pSource));
    out.push(sig('googleReviews', pStatus, 0, '', 0, pSource));
  } else {
    const { rating, reviewCount } = places.profile;
    out.push(sig('googleRating', pStatus, ratingFraction(rating), rating === null ? 'No Google rating yet' : `Google rating ${rating.toFixed(1)}★`, rating, pSource));
    out.push(sig('googleReviews', pStatus, reviewFraction(reviewCount, 150), `${reviewCount} Google review${reviewCount === 1 ? '' : 's'}${reviewCount < 25 ? ' (few for customers to judge by)' : ''}`, reviewCount, pSource));
  }
  if (yelp.status === 'error') {
    out.push(notCounted('yelpRating', yFailed, `Yelp reviews could not be verified: ${yelp.error}`));
    out.push(notCounted('yelpReviews', yFailed));
  } else if (!yelp.listing) {
    out.push(sig('yelpRating', yStatus, 0, 'No Yelp reviews (no Yelp listing found)', null, ySource));
    out.push(sig('yelpReviews', yStatus, 0, '', 0, ySource));
  } else {
    const { rating, reviewCount } = yelp.listing;
    out.push(sig('yelpRating', yStatus, ratingFraction(rating), rating === null ? 'No Yelp rating yet' : `Yelp rating ${rating.toFixed(1)}★`, rating, ySource));
    out.push(sig('yelpReviews', yStatus, reviewFraction(reviewCount, 100), `${reviewCount} Yelp review${reviewCount === 1 ? '' : 's'}`, reviewCount, ySource));
  }

  // Profile quality
  const profileKeys = ['openingHours', 'photos', 'phone', 'profileWebsite', 'operational'] as const;
  if (places.status === 'error') {
    profileKeys.forEach((k, i) => out.push(notCounted(k, gFailed, i === 0 ? `Google profile details could not be verified: ${places.error}` : '')));
  } else if (!places.profile) {
    profileKeys.forEach((k, i) => out.push(sig(k, pStatus, 0, i === 0 ? 'No Google profile to hold hours, photos and phone' : '', null, pSource)));
  } else {
    const p = places.profile;
    out.push(sig('openingHours', pStatus, p.openingHours.length ? 1 : 0, p.openingHours.length ? 'Opening hours listed' : 'Opening hours missing on Google', p.openingHours.length > 0, pSource));
    out.push(sig('photos', pStatus, Math.min(1, p.photosCount / 10), `${p.photosCount} photo${p.photosCount === 1 ? '' : 's'} on the Google profile`, p.photosCount, pSource));
    // A colon, not brackets: US numbers are written '(925) 555-0109', and '((925) …)' reads as a typo.
    out.push(sig('phone', pStatus, p.phone ? 1 : 0, p.phone ? `Phone number listed: ${p.phone}` : 'No phone number on Google', p.phone, pSource));
    out.push(sig('profileWebsite', pStatus, p.website ? 1 : 0, p.website ? 'Website linked from the Google profile' : 'No website linked from the Google profile', p.website, pSource));
    const operational = p.businessStatus === 'OPERATIONAL';
    out.push(sig('operational', pStatus, operational ? 1 : 0, operational ? 'Listed as operational' : `Google lists the business as ${p.businessStatus ?? 'unknown status'}`, p.businessStatus, pSource));
  }

  // Website trust and content quality
  const siteKeys = ['https', 'securityHeaders', 'performance', 'mobileViewport', 'structuredData', 'title', 'metaDescription', 'headings', 'imageAlt', 'wordCount', 'contactDetails', 'booking'] as const;
  const w = website.facts;
  if (!w) {
    const absent = websiteAbsence(facts);
    siteKeys.forEach((k) => {
      const first = k === 'https' || k === 'title';
      if (absent.status === 'unverified') out.push(notCounted(k, absent.reason, first ? `Website not measured: ${absent.reason}` : ''));
      else out.push(sig(k, absent.status, 0, first ? absent.listed : '', null, absent.source));
    });
  } else {
    const st = statusOf(website.status);
    const src = website.source;
    const h = w.securityHeaders;
    const headerCount = [h.hsts, h.csp, h.xContentTypeOptions, h.frameProtection].filter(Boolean).length;
    const perf = performanceScore(w.responseTimeMs, w.bytes);
    out.push(sig('https', st, w.https ? 1 : 0, w.https ? 'Website served over HTTPS' : 'Website is not served over HTTPS (browsers mark it "Not secure")', w.https, src));
    const missingHeaders = [!h.hsts && 'HSTS', !h.csp && 'Content-Security-Policy', !h.xContentTypeOptions && 'X-Content-Type-Options', !h.frameProtection && 'X-Frame-Options'].filter(Boolean);
    out.push(sig('securityHeaders', st, headerCount / 4, headerCount === 4 ? 'All four security headers present' : `${headerCount} of 4 security headers present (missing: ${missingHeaders.join(', ')})`, headerCount, src));
    out.push(sig('performance', st, perf / 100, `Server answered in ${w.responseTimeMs} ms with ${Math.round(w.bytes / 1024)} KB (performance ${perf}/100)`, perf, src));
    out.push(sig('mobileViewport', st, w.viewport ? 1 : 0, w.viewport ? 'Mobile-friendly viewport set' : 'No mobile viewport: the page may render poorly on phones', w.viewport, src));
    const lbPresent = w.localBusiness !== null || w.structuredDataTypes.includes('LocalBusiness');
    out.push(sig('structuredData', st, lbPresent ? 1 : w.structuredDataTypes.length ? 0.5 : 0, lbPresent ? 'LocalBusiness structured data present' : w.structuredDataTypes.length ? `Structured data present (${w.structuredDataTypes.slice(0, 3).join(', ')}) but no LocalBusiness` : 'No structured data for search engines', lbPresent, src));

    const titleLen = w.title?.length ?? 0;
    out.push(sig('title', st, !w.title ? 0 : titleLen >= 10 && titleLen <= 70 ? 1 : 0.5, !w.title ? 'Page title missing' : titleLen >= 10 && titleLen <= 70 ? `Page title: "${w.title}"` : `Page title is ${titleLen} characters (aim for 10-70)`, w.title, src));
    const descLen = w.metaDescription?.length ?? 0;
    out.push(sig('metaDescription', st, !w.metaDescription ? 0 : descLen >= 50 && descLen <= 160 ? 1 : 0.5, !w.metaDescription ? 'Meta description missing: search results show random page text' : descLen >= 50 && descLen <= 160 ? 'Meta description present' : `Meta description is ${descLen} characters (aim for 50-160)`, w.metaDescription, src));
    out.push(sig('headings', st, w.headings.h1 === 1 ? 1 : w.headings.h1 > 1 ? 0.75 : w.headings.h2 > 0 ? 0.5 : 0, w.headings.h1 === 0 ? 'No main heading (H1) on the page' : w.headings.h1 > 1 ? `${w.headings.h1} H1 headings (one is clearer)` : 'Clear main heading (H1)', w.headings.h1, src));
    const alt = w.images.total === 0 ? 1 : w.images.withAlt / w.images.total;
    out.push(sig('imageAlt', st, alt, w.images.total === 0 ? 'No images to describe' : `${w.images.withAlt} of ${w.images.total} images have alt text`, Math.round(alt * 100), src));
    out.push(sig('wordCount', st, w.wordCount / 300, `${w.wordCount} words of visible content${w.wordCount < 300 ? ' (thin for search engines)' : ''}`, w.wordCount, src));
    const contact = (w.contact.phones.length ? 0.5 : 0) + (w.contact.emails.length || w.contact.contactForm ? 0.5 : 0);
    out.push(sig('contactDetails', st, contact, contact === 1 ? 'Phone and email/contact form on the page' : contact === 0 ? 'No contact details found on the page' : 'Only partial contact details on the page', contact, src));
    const bookingNeeded = /service|healthcare|restaurant/i.test(query.businessType);
    out.push(sig('booking', st, w.booking.present ? 1 : 0, w.booking.present ? 'Online booking or ordering available' : `No online booking or ordering${bookingNeeded ? ' (customers must call)' : ''}`, w.booking.present, src));
  }

  // Competitive intelligence
  const compKeys = ['ratingPercentile', 'reviewPercentile'] as const;
  const competitorsGap = !query.location
    ? { reason: 'no location was selected', insight: 'Competitive insights not included: no location selected' }
    : places.status === 'error'
      ? { reason: gFailed, insight: `Local competitors could not be verified: ${places.error}` }
      : places.competitorsError
        ? { reason: `local competitors could not be looked up (${withoutStop(places.competitorsError)})`, insight: `Local competitors could not be verified: ${places.competitorsError}` }
        : !places.competitors || places.competitors.length < 3
          ? { reason: `too few same-type businesses were found nearby to compare (${places.competitors?.length ?? 0})`, insight: 'Too few same-type businesses found nearby to compare' }
          : null;
  if (competitorsGap) {
    compKeys.forEach((k, i) => out.push(notCounted(k, competitorsGap.reason, i === 0 ? competitorsGap.insight : '')));
  } else {
    const comps: Competitor[] = places.competitors!;
    const src = places.competitorsSource ?? pSource;
    if (!places.profile) {
      compKeys.forEach((k, i) => out.push(sig(k, pStatus, 0, i === 0 ? `Not on Google, so invisible next to ${comps.length} local competitors` : '', 0, src)));
    } else {
      const ratings = comps.map((c) => c.rating ?? 0);
      const rp = percentile(places.profile.rating ?? 0, ratings);
      const vp = percentile(places.profile.reviewCount, comps.map((c) => c.reviewCount));
      const medianReviews = [...comps.map((c) => c.reviewCount)].sort((a, b) => a - b)[Math.floor(comps.length / 2)]!;
      out.push(sig('ratingPercentile', pStatus, rp / 100, `Rating higher than ${rp}% of ${comps.length} local competitors`, rp, src));
      out.push(sig('reviewPercentile', pStatus, vp / 100, `More reviews than ${vp}% of local competitors (median ${medianReviews}, yours ${places.profile.reviewCount})`, vp, src));
    }
  }
  return out;
}
