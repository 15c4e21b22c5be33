import {
  FACTOR_KEYS,
  INSIGHT_MARKERS,
  MIN_MEASURED_FACTORS,
  type AnalysisResponse,
  type CompetitiveStanding,
  type Evidence,
  type EvidenceSignal,
  type FactorKey,
  type PlatformEvidence,
  type VerificationLink,
} from '@site/contracts/analysis';
import type { AnalysisFacts, PlacesLookup, YelpLookup } from './types';
import { buildSignals } from './build-signals';
import { citationComparisons } from './citations';
import { websiteProblem } from './signal-reasons';
import {
  FACTOR_POINTS,
  gradeFor,
  insightFor,
  performanceScore,
  scoreAll,
  SCORING_MODEL_VERSION,
  securityScore,
  SIGNALS,
  type FactorResult,
  type Signal,
  type SignalKey,
} from './scoring';
import { buildRecommendations } from './recommendations';
import { buildAiAssessment } from './ai-assessment';
import { socialPlatformEvidence } from './providers/social';

/** Turns the facts into the scorecard answer of spec section 3 (without id and cache flags). */

export type AnalysisReport = Omit<AnalysisResponse, 'id' | 'cached' | 'cacheNote'>;

const mock = (isMock: boolean, source?: string) => (isMock ? { isMockData: true as const, source: source ?? 'Simulated' } : {});

function platformStatus(l: PlacesLookup | YelpLookup) {
  return l.status === 'error' ? ('error' as const) : l.found ? ('found' as const) : ('not_found' as const);
}

function googleEvidence(p: PlacesLookup): PlatformEvidence {
  const links: VerificationLink[] = [
    { title: 'Search Google Maps', domain: 'google.com', description: `Google Maps results for "${p.searchTerm}"`, url: `https://www.google.com/maps/search/?api=1&query=${encodeURIComponent(p.searchTerm)}` },
  ];
  if (p.status === 'live' && p.profile?.mapsUrl) links.unshift({ title: 'Google Business Profile', domain: 'google.com', description: 'The profile found by the Places API', url: p.profile.mapsUrl });
  return {
    platform: 'Google Business Profile',
    found: p.status === 'error' ? null : Boolean(p.found),
    status: platformStatus(p),
    searchTerm: p.searchTerm,
    apiEndpoint: p.apiEndpoint,
    dataSource: p.dataSource,
    verificationLinks: links,
    lastChecked: p.checkedAt,
    error: p.error,
    ...(p.profile ? { rating: p.profile.rating, reviewCount: p.profile.reviewCount, name: p.profile.name, address: p.profile.address, phone: p.profile.phone } : {}),
    ...mock(p.status === 'simulated', p.source),
  };
}

function yelpEvidence(y: YelpLookup, location: string | null): PlatformEvidence {
  const links: VerificationLink[] = [
    { title: 'Search Yelp', domain: 'yelp.com', description: `Yelp results for "${y.searchTerm}"`, url: `https://www.yelp.com/search?find_desc=${encodeURIComponent(y.searchTerm.replace(` ${location ?? ''}`, ''))}&find_loc=${encodeURIComponent(location ?? 'East Bay, CA')}` },
  ];
  if (y.status === 'live' && y.listing?.url) links.unshift({ title: 'Yelp listing', domain: 'yelp.com', description: 'The listing found by the Yelp Fusion API', url: y.listing.url });
  return {
    platform: 'Yelp',
    found: y.status === 'error' ? null : Boolean(y.found),
    status: platformStatus(y),
    searchTerm: y.searchTerm,
    apiEndpoint: y.apiEndpoint,
    dataSource: y.dataSource,
    verificationLinks: links,
    lastChecked: y.checkedAt,
    error: y.error,
    ...(y.listing ? { rating: y.listing.rating, reviewCount: y.listing.reviewCount, categories: y.listing.categories, name: y.listing.name, phone: y.listing.phone } : {}),
    ...mock(y.status === 'simulated', y.source),
  };
}

// ---------------------------------------------------------------------------------------------------------
// Evidence per point: every signal with its value in words, its source and a page to check it on
// ---------------------------------------------------------------------------------------------------------

const GOOGLE_KEYS = new Set<string>(['googleProfile', 'googleRating', 'googleReviews', 'openingHours', 'photos', 'phone', 'profileWebsite', 'operational']);
const YELP_KEYS = new Set<string>(['yelpListing', 'yelpRating', 'yelpReviews']);
const COMPETITOR_KEYS = new Set<string>(['ratingPercentile', 'reviewPercentile']);

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;
const yesNo = (v: unknown, yes: string, no: string) => (v ? yes : no);

/** The measured value of a counted signal in words a business owner reads. */
function valueInWords(s: Signal): string {
  const v = s.value;
  const n = typeof v === 'number' ? v : null;
  switch (s.key as SignalKey) {
    case 'googleProfile':
      return yesNo(v, 'Profile found', 'No profile found');
    case 'yelpListing':
      return yesNo(v, 'Listing found', 'No listing found');
    case 'citationConsistency':
      return n === null ? 'Not compared' : `${n}% of name, address and phone checks agree`;
    case 'socialLinks':
      return n === null ? 'No website to check' : n === 0 ? 'No social profiles linked' : `${plural(n, 'social profile')} linked`;
    case 'googleRating':
    case 'yelpRating':
      return n === null ? 'No rating yet' : `${n.toFixed(1)} stars`;
    case 'googleReviews':
    case 'yelpReviews':
      return plural(n ?? 0, 'review');
    case 'openingHours':
      return yesNo(v, 'Opening hours listed', 'No opening hours');
    case 'photos':
      return plural(n ?? 0, 'photo');
    case 'phone':
      return typeof v === 'string' && v ? v : 'No phone number';
    case 'profileWebsite':
      return typeof v === 'string' && v ? v : 'No website linked';
    case 'operational':
      return v === 'OPERATIONAL' ? 'Operational' : typeof v === 'string' ? v.toLowerCase().replace(/_/g, ' ') : 'Status unknown';
    case 'https':
      return v === null ? 'No website' : yesNo(v, 'Served over HTTPS', 'Not served over HTTPS');
    case 'securityHeaders':
      return n === null ? 'No website' : `${n} of 4 security headers`;
    case 'performance':
      return n === null ? 'No website' : `Performance ${n}/100`;
    case 'mobileViewport':
      return v === null ? 'No website' : yesNo(v, 'Mobile viewport set', 'No mobile viewport');
    case 'structuredData':
      return v === null ? 'No website' : yesNo(v, 'LocalBusiness data present', s.fraction > 0 ? 'Other structured data only' : 'No structured data');
    case 'title':
      return typeof v === 'string' && v ? `"${v}" (${v.length} characters)` : 'No page title';
    case 'metaDescription':
      return typeof v === 'string' && v ? `${v.length} characters` : 'No meta description';
    case 'headings':
      return n === null ? 'No website' : n === 1 ? 'One main heading (H1)' : `${plural(n, 'main heading')} (H1)`;
    case 'imageAlt':
      return n === null ? 'No website' : `${n}% of images described`;
    case 'wordCount':
      return n === null ? 'No website' : plural(n, 'word');
    case 'contactDetails':
      return n === null ? 'No website' : n >= 1 ? 'Phone and email or form' : n > 0 ? 'Partial contact details' : 'No contact details';
    case 'booking':
      return v === null ? 'No website' : yesNo(v, 'Online booking or ordering', 'No online booking or ordering');
    case 'ratingPercentile':
      return n === null ? 'Not compared' : `Rating higher than ${n}% of local competitors`;
    case 'reviewPercentile':
      return n === null ? 'Not compared' : `More reviews than ${n}% of local competitors`;
    default:
      return v === null || v === undefined ? 'No value' : String(v);
  }
}

export function signalEvidence(facts: AnalysisFacts, signals: readonly Signal[], google: PlatformEvidence, yelpEv: PlatformEvidence): EvidenceSignal[] {
  const { places, yelp, website, query } = facts;
  const siteUrl = website.facts?.finalUrl ?? website.url;
  const liveSite = website.status === 'live' && website.facts ? website.facts.finalUrl : null;
  const competitorsUrl = query.location
    ? `https://www.google.com/maps/search/?api=1&query=${encodeURIComponent(`${query.businessType} near ${query.location}`)}`
    : null;
  return signals.map((s) => {
    const google_ = GOOGLE_KEYS.has(s.key);
    const yelp_ = YELP_KEYS.has(s.key);
    const comp = COMPETITOR_KEYS.has(s.key);
    let source: string;
    if (s.status === 'simulated') source = s.source ?? 'Simulated';
    else if (google_) source = places.status === 'error' ? `Google Places API (failed: ${places.error})` : 'Google Places API';
    else if (yelp_) source = yelp.status === 'error' ? `Yelp Fusion API (failed: ${yelp.error})` : 'Yelp Fusion API';
    else if (comp) source = 'Google Places API (same-type businesses in the location)';
    else if (s.key === 'citationConsistency') source = 'Compared across Google, Yelp and the website';
    else if (website.facts) source = `Our fetch of ${website.facts.finalUrl}`;
    else if (website.status === 'error') source = `Our fetch of ${siteUrl ?? 'the website'} (failed)`;
    else if (places.profile && !places.profile.website) source = 'Google Places API (no website on the profile)';
    else source = 'No website known';

    const verificationUrl = google_
      ? (google.verificationLinks[0]?.url ?? null)
      : yelp_
        ? (yelpEv.verificationLinks[0]?.url ?? null)
        : comp
          ? competitorsUrl
          : s.key === 'citationConsistency'
            ? null
            : liveSite;

    // Each signal names its own cause: a neighbour's reason could be another cause entirely.
    const valueText = s.status === 'unverified' ? `Not verified: ${s.reason ?? (s.insight.trim() || 'no data')}` : valueInWords(s);

    return {
      key: s.key,
      label: s.label,
      measures: SIGNALS[s.key as SignalKey]?.measures ?? s.label,
      status: s.status,
      points: s.status === 'unverified' ? 0 : Math.round(s.fraction * s.maxPoints * 10) / 10,
      maxPoints: s.maxPoints,
      valueText,
      source,
      verificationUrl,
      ...(s.status === 'simulated' ? { isMockData: true } : {}),
    };
  });
}

/** The business's standing among same-type businesses in its location, or why there is none. */
export function competitiveStanding(facts: AnalysisFacts, signals: readonly Signal[]): CompetitiveStanding {
  const { query, places } = facts;
  const comps = places.competitors;
  const rating = signals.find((s) => s.key === 'ratingPercentile');
  const reviews = signals.find((s) => s.key === 'reviewPercentile');
  const counted = Boolean(places.profile && comps && comps.length >= 3 && rating && rating.status !== 'unverified');
  const reason = !query.location
    ? 'No location was selected, so there are no local competitors to compare with.'
    : places.status === 'error' || places.competitorsError
      ? `Local competitors could not be looked up (${places.error ?? places.competitorsError}).`
      : !comps || comps.length < 3
        ? `Too few same-type businesses were found in ${query.location} to compare with (${comps?.length ?? 0}).`
        : !places.profile
          ? `The business was not found on Google, so it has no rating to compare with ${comps.length} local competitors.`
          : null;
  const reviewCounts = (comps ?? []).map((c) => c.reviewCount).sort((a, b) => a - b);
  const simulated = places.status === 'simulated' && comps !== null;
  return {
    location: query.location,
    businessType: query.businessType,
    competitorCount: comps ? comps.length : null,
    ratingPercentile: counted && typeof rating?.value === 'number' ? rating.value : null,
    reviewPercentile: counted && typeof reviews?.value === 'number' ? reviews.value : null,
    rating: places.profile?.rating ?? null,
    reviewCount: places.profile?.reviewCount ?? null,
    medianReviews: reviewCounts.length ? reviewCounts[Math.floor(reviewCounts.length / 2)]! : null,
    reason: counted ? null : reason ?? 'Local competitors could not be compared.',
    ...mock(simulated, places.competitorsSource ?? places.source),
  };
}

const FACTOR_NAMES: Record<FactorKey, string> = {
  visibility: 'Visibility',
  reputation: 'Reputation',
  profileQuality: 'Profile Quality',
  websiteTrust: 'Website Trust',
  contentQuality: 'Content Quality',
  competitiveIntelligence: 'Competitive Intelligence',
};

/** The overall score's lines: what it is based on, whether it is a sample, and which factors are left out. */
function overallInsights(factors: Record<FactorKey | 'overall', FactorResult>): string[] {
  const o = factors.overall;
  const measured = o.factorsMeasured ?? 0;
  const left = FACTOR_KEYS.filter((k) => !factors[k].verified).map((k) => `${INSIGHT_MARKERS.warning} ${FACTOR_NAMES[k]} was not measured and is left out of the overall score`);
  if (!o.verified) {
    return [`${INSIGHT_MARKERS.warning} No overall score: only ${measured} of ${FACTOR_KEYS.length} factors could be measured, and an overall grade needs at least ${MIN_MEASURED_FACTORS}`, ...left];
  }
  return [
    `Overall ${o.score}/100, based on ${measured} of ${FACTOR_KEYS.length} factors; ${o.dataPoints} of 100 points from verified data`,
    ...(o.sample ? [`${INSIGHT_MARKERS.warning} Sample score: built from sample data, not the business's real standing`] : []),
    ...left,
  ];
}

export function buildReport(facts: AnalysisFacts, analyzedAt: string): AnalysisReport {
  const signals = buildSignals(facts);
  const factors = scoreAll(signals);
  const { assessment, enhancements } = buildAiAssessment({ facts, signals, factors });
  const { places, yelp, website, query } = facts;
  const w = website.facts;
  const webMock = website.status === 'simulated';

  const pageInfo = { url: webMock ? '' : (w?.finalUrl ?? website.url ?? ''), analyzedAt, ...mock(webMock, website.source) };
  const performance = w
    ? (() => {
        const score = performanceScore(w.responseTimeMs, w.bytes);
        return { score, grade: gradeFor(score), source: webMock ? website.source! : `Measured by our server: first response in ${w.responseTimeMs} ms, ${Math.round(w.bytes / 1024)} KB (not a browser lab test)`, ...mock(webMock, website.source) };
      })()
    : { score: 0, grade: 'N/A', source: website.error ? `Not measured: ${websiteProblem(website)}` : 'Not measured: no website analyzed' };
  const security = w
    ? (() => {
        const score = securityScore(w);
        return { score, grade: gradeFor(score), source: webMock ? website.source! : 'Checked by our server: HTTPS and response security headers', ...mock(webMock, website.source) };
      })()
    : { score: 0, grade: 'N/A', source: website.error ? `Not measured: ${websiteProblem(website)}` : 'Not measured: no website analyzed' };
  const technologies = (w?.technologies ?? []).map((t) => ({ name: t.name, category: t.category, ...mock(webMock, website.source) }));

  const detailsOf = (list: readonly Signal[], sourceOf: ReadonlyMap<string, string>) =>
    Object.fromEntries(
      list.map((s) => [
        s.key,
        {
          label: s.label,
          value: s.status === 'unverified' ? null : (s.value ?? null),
          status: s.status,
          points: s.status === 'unverified' ? 0 : Math.round(s.fraction * s.maxPoints * 10) / 10,
          maxPoints: s.maxPoints,
          ...(s.status === 'simulated' ? mock(true, s.source) : { source: sourceOf.get(s.key) }),
        },
      ]),
    );

  const evidenceFor = (list: readonly Signal[], dataPoints: number, totalPossiblePoints: number, extra: Record<string, unknown> = {}): Evidence => {
    const signalList = signalEvidence(facts, list, google, yelpEv);
    const sourceOf = new Map(signalList.map((e) => [e.key, e.source]));
    return {
      presentData: list.filter((s) => s.status !== 'unverified' && s.fraction >= 0.5).map((s) => s.label + (s.status === 'simulated' ? ' (sample data)' : '')),
      missingData: list.filter((s) => s.status === 'unverified' || s.fraction < 0.5).map((s) => s.label + (s.status === 'unverified' ? ' (not measured)' : s.status === 'simulated' ? ' (sample data)' : '')),
      details: { ...detailsOf(list, sourceOf), ...extra },
      pageInfo,
      performance,
      security,
      technologies,
      dataPoints,
      totalPossiblePoints,
      signals: signalList,
    };
  };

  // Visibility details: platforms, citation consistency, local presence, platform checks.
  const checkedAt = places.checkedAt;
  const google = googleEvidence(places);
  const yelpEv = yelpEvidence(yelp, query.location);
  const social = (['facebook', 'instagram', 'linkedin'] as const).map((p) => [p, socialPlatformEvidence(p, query, website.status === 'live' ? w : null, checkedAt)] as const);
  const platforms = [
    { platform: 'Google Business Profile', priority: 'high' as const, status: google.status, found: google.found },
    { platform: 'Yelp', priority: 'high' as const, status: yelpEv.status, found: yelpEv.found },
    ...social.map(([, e]) => ({ platform: e.platform, priority: 'medium' as const, status: e.status, found: e.found })),
  ];
  const known = platforms.filter((p) => p.found !== null);
  const comparisons = citationComparisons(facts);
  const simSources = [places.status === 'simulated' ? places.source : undefined, yelp.status === 'simulated' ? yelp.source : undefined].filter(Boolean) as string[];
  const visibilityExtra = {
    missingPlatforms: platforms.filter((p) => p.found === false).map((p) => ({ platform: p.platform, found: false })),
    platforms,
    citationConsistency: comparisons.length ? Math.round((100 * comparisons.filter((c) => c.match).length) / comparisons.length) : 0,
    citationComparisons: comparisons,
    localPresence: known.length ? Math.round((100 * known.filter((p) => p.found).length) / known.length) : 0,
    evidence: { platformChecks: { googleBusinessProfile: google, yelp: yelpEv, ...Object.fromEntries(social) } },
    ...mock(simSources.length > 0, simSources[0]),
  };

  const scores = {} as AnalysisReport['scores'];
  for (const f of [...FACTOR_KEYS, 'overall'] as const) {
    const list = f === 'overall' ? signals : signals.filter((s) => s.factor === f);
    const r = factors[f];
    const insights = f === 'overall' ? overallInsights(factors) : list.map(insightFor).filter((i): i is string => i !== null);
    const extra = f === 'visibility' ? visibilityExtra : f === 'competitiveIntelligence' ? { standing: competitiveStanding(facts, signals) } : {};
    (scores as Record<string, unknown>)[f] = {
      score: r.score,
      label: r.label,
      color: r.color,
      verified: r.verified,
      sample: r.sample,
      ...(f === 'overall' ? { factorsMeasured: r.factorsMeasured ?? 0 } : {}),
      insights,
      evidence: evidenceFor(f === 'overall' ? [] : list, r.dataPoints, f === 'overall' ? 100 : FACTOR_POINTS[f as FactorKey], extra),
      aiEnhancement: enhancements[f],
    };
  }

  return {
    mode: facts.mode,
    businessInfo: {
      businessName: query.businessName,
      businessType: query.businessType,
      location: query.location ?? 'Unknown Location',
      website: website.status === 'simulated' ? '' : (w?.finalUrl ?? website.url ?? ''),
    },
    analyzedAt,
    scores,
    recommendations: buildRecommendations(facts, signals),
    aiAssessment: assessment,
    dataSources: {
      googlePlaces: places.status,
      yelp: yelp.status,
      website: website.status,
      social: 'links_only',
    },
    scoringModel: SCORING_MODEL_VERSION,
  };
}
