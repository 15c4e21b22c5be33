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
import type { WebsiteFacts } from './types';

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

export const clamp01 = (n: number) => (Number.isFinite(n) ? Math.min(1, Math.max(0, n)) : 0);

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
