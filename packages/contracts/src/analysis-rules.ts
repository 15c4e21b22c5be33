/*
 * The analysis tool's pure rules, shared by the tool and the API (business-type inference, website-mode URL rule,
 * locations, score labels, factor keys). No zod here: the tool's pages import these without loading zod; the schemas
 * are in ./analysis, which re-exports this module.
 */
import { textProblem } from './text';

// ---------------------------------------------------------------------------------------------------------
// Rules shared by the tool and the API
// ---------------------------------------------------------------------------------------------------------

export const ANALYSIS_LOCATIONS = ['Danville, CA', 'San Ramon, CA', 'Walnut Creek, CA', 'Pleasanton, CA', 'Dublin, CA'] as const;
export const DEFAULT_ANALYSIS_LOCATION = 'Danville, CA';
export const NO_LOCATION_LABEL = 'No location selected';

export const BUSINESS_TYPES = ['Restaurant', 'Service', 'Retail', 'Healthcare'] as const;
export type InferredBusinessType = (typeof BUSINESS_TYPES)[number];

/** Keyword lists in the order they are checked (spec section 5); the first list with a match wins. */
export const BUSINESS_TYPE_KEYWORDS: ReadonlyArray<readonly [InferredBusinessType, readonly string[]]> = [
  ['Restaurant', ['restaurant', 'cafe', 'pizza', 'burger', 'sushi', 'chinese', 'italian', 'mexican', 'thai']],
  ['Service', ['grooming', 'salon', 'spa', 'cleaning', 'plumbing', 'electrical', 'repair', 'maintenance', 'consulting']],
  ['Retail', ['store', 'shop', 'market', 'boutique', 'gallery', 'pharmacy']],
  ['Healthcare', ['medical', 'dental', 'clinic', 'doctor', 'physician', 'health']],
];

/** Business type from keywords in the name, case-insensitive, in the spec's order; otherwise Service. */
export function inferBusinessType(businessName: string): InferredBusinessType {
  const name = businessName.toLowerCase();
  for (const [type, keywords] of BUSINESS_TYPE_KEYWORDS) {
    if (keywords.some((k) => name.includes(k))) return type;
  }
  return 'Service';
}

/** Website mode: a URL without an http:// or https:// prefix gets https:// added. */
export function normalizeWebsiteUrl(raw: string): string {
  const url = raw.trim();
  return /^https?:\/\//i.test(url) ? url : `https://${url}`;
}

export const SCORE_THRESHOLDS = { excellent: 80, good: 60, fair: 40 } as const;
/** The spec's default for a score the answer does not carry at all. */
export const NO_DATA_LABEL = 'No Data';
export const NO_DATA_COLOR = 'text-gray-500';
/** A factor with nothing that could be counted: no number is shown and it is left out of the overall score. */
export const NOT_MEASURED_LABEL = 'Not measured';
/** The overall score when fewer than MIN_MEASURED_FACTORS factors could be measured: no overall grade. */
export const NOT_ENOUGH_DATA_LABEL = 'Not enough data';
export const MIN_MEASURED_FACTORS = 3;
/** A score that counts simulated figures: shown as a sample, never as the business's standing. */
export const SAMPLE_SCORE_LABEL = 'Sample score';
export const SAMPLE_SCORE_COLOR = 'text-amber-700';

/** Label for a verified score: 80+ Excellent, 60+ Good, 40+ Fair, below Poor. */
export function scoreLabel(score: number): string {
  if (score >= SCORE_THRESHOLDS.excellent) return 'Excellent';
  if (score >= SCORE_THRESHOLDS.good) return 'Good';
  if (score >= SCORE_THRESHOLDS.fair) return 'Fair';
  return 'Poor';
}

/** Badge colour (a text class): 80+ green, 60+ yellow, 40+ orange, below red. */
export function scoreColor(score: number): string {
  if (score >= SCORE_THRESHOLDS.excellent) return 'text-green-600';
  if (score >= SCORE_THRESHOLDS.good) return 'text-yellow-600';
  if (score >= SCORE_THRESHOLDS.fair) return 'text-orange-600';
  return 'text-red-600';
}

/** Leading markers of insights. */
export const INSIGHT_MARKERS = { check: '✅', warning: '⚠️', cross: '❌' } as const;

/** The ROI calculator's hour-cost model (spec section 9): the analysis prices its savings with it. */
export const ROI_WEEKS_PER_MONTH = 4.33;
export const ROI_DEFAULT_COST_PER_HOUR = 25;
/** Dollars as the site writes them everywhere, in the API's sentences and on the page alike: whole, with thousands separators ($1,212). */
export const usd = (n: number): string => `$${Math.round(n).toLocaleString('en-US')}`;
export function monthlySavingsFor(hoursPerWeek: number, costPerHour: number, efficiencyPercent: number): number {
  return Math.round(hoursPerWeek * ROI_WEEKS_PER_MONTH * costPerHour * (efficiencyPercent / 100));
}

export const DEFAULT_TOTAL_POSSIBLE_POINTS = 100;

/**
 * The query flag of the scorecard's hand-off to /roi-calculator when its hours rest on sample data
 * (`?customerService=…&from=sample-analysis`): the calculator page says the figures are an example.
 */
export const ROI_SAMPLE_HANDOFF = { param: 'from', value: 'sample-analysis' } as const;

/** The longest business name and website address an analysis request may carry. */
export const BUSINESS_NAME_MAX = 120;
export const WEBSITE_URL_MAX = 2048;
/**
 * The addresses the analysis takes, as a JSON Schema `pattern` for the API description: an optional http(s) scheme,
 * a public host name (not an IP address or localhost), port 80 or 443 if any, then a path of printable ASCII.
 */
export const WEBSITE_URL_PATTERN =
  '^(?:[Hh][Tt][Tt][Pp][Ss]?://)?(?:[A-Za-z0-9-]+\\.)+(?![Ll][Oo][Cc][Aa][Ll][Hh][Oo][Ss][Tt](?:[:/?#]|$))[A-Za-z]{2,63}(?::(?:80|443))?(?:[/?#][!-~]*)?$';

/**
 * Why a website address cannot be analysed, in words for the form, or null: the rule of the website request's `url`
 * (the schema in ./analysis checks with this function; the forms use it without loading zod).
 */
export function websiteUrlProblem(raw: string): string | null {
  const value = raw.trim();
  if (!value) return 'Enter a website address';
  if (value.length > WEBSITE_URL_MAX) return 'Website address is too long';
  const text = textProblem(value);
  if (text) return text;
  return URL.canParse(normalizeWebsiteUrl(value)) ? null : 'Enter a valid website address';
}

export const FACTOR_KEYS = ['visibility', 'reputation', 'profileQuality', 'websiteTrust', 'contentQuality', 'competitiveIntelligence'] as const;
export type FactorKey = (typeof FACTOR_KEYS)[number];

/**
 * The source of each kind of simulated data, in the owner's words: what is a sample and which setting makes it real.
 * One per provider, so the mock-data warning names each once.
 */
export const SAMPLE_SOURCES = {
  googlePlaces: 'Google Business Profile and local competitors (sample data: no Google Places key configured)',
  yelp: 'Yelp (sample data: no Yelp key configured)',
  website: 'Website checks (sample data: the website address would come from Google, and no Google Places key is configured)',
} as const;

/** Reports stored before the owner's words named their sources in the developer's (env variable names). */
const LEGACY_SAMPLE_SOURCES: ReadonlyArray<readonly [RegExp, string]> = [
  [/^Simulated: no website to fetch/, SAMPLE_SOURCES.website],
  [/^Simulated: GOOGLE_PLACES_API_KEY/, SAMPLE_SOURCES.googlePlaces],
  [/^Simulated: YELP_API_KEY/, SAMPLE_SOURCES.yelp],
];

/** A simulated detail's source as the owner reads it (older reports' developer wording mapped to today's). */
export function sampleSourceLabel(source: string): string {
  return LEGACY_SAMPLE_SOURCES.find(([pattern]) => pattern.test(source))?.[1] ?? source;
}

/** Distinct sources of every simulated detail anywhere in the scores (the mock-data warning lists them). */
export function collectMockSources(scores: unknown): string[] {
  const found = new Set<string>();
  const walk = (value: unknown, depth: number) => {
    if (depth > 12 || value === null || typeof value !== 'object') return;
    if (Array.isArray(value)) {
      for (const v of value) walk(v, depth + 1);
      return;
    }
    const record = value as Record<string, unknown>;
    if (record.isMockData === true && typeof record.source === 'string') found.add(sampleSourceLabel(record.source));
    for (const v of Object.values(record)) walk(v, depth + 1);
  };
  walk(scores, 0);
  return [...found].sort();
}
