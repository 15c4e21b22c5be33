import {
  FACTOR_KEYS,
  type AnalysisResponse,
  type Evidence,
  type FactorKey,
  type PlatformEvidence,
  type VerificationLink,
} from '@site/contracts/analysis';
import type { AnalysisFacts, PlacesLookup, YelpLookup } from './types';
import {
  buildSignals,
  citationComparisons,
  FACTOR_POINTS,
  gradeFor,
  insightFor,
  performanceScore,
  scoreAll,
  SCORING_MODEL_VERSION,
  securityScore,
  type Signal,
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
    : { score: 0, grade: 'N/A', source: website.error ? `Not measured: ${website.error}` : 'Not measured: no website analyzed' };
  const security = w
    ? (() => {
        const score = securityScore(w);
        return { score, grade: gradeFor(score), source: webMock ? website.source! : 'Checked by our server: HTTPS and response security headers', ...mock(webMock, website.source) };
      })()
    : { score: 0, grade: 'N/A', source: website.error ? `Not measured: ${website.error}` : 'Not measured: no website analyzed' };
  const technologies = (w?.technologies ?? []).map((t) => ({ name: t.name, category: t.category, ...mock(webMock, website.source) }));

  const detailsOf = (list: readonly Signal[]) =>
    Object.fromEntries(
      list.map((s) => [
        s.key,
        {
          label: s.label,
          value: s.status === 'unverified' ? null : (s.value ?? null),
          status: s.status,
          points: s.status === 'unverified' ? 0 : Math.round(s.fraction * s.maxPoints * 10) / 10,
          maxPoints: s.maxPoints,
          ...mock(s.status === 'simulated', s.source),
        },
      ]),
    );

  const evidenceFor = (list: readonly Signal[], dataPoints: number, totalPossiblePoints: number, extra: Record<string, unknown> = {}): Evidence => ({
    presentData: list.filter((s) => s.status !== 'unverified' && s.fraction >= 0.5).map((s) => s.label + (s.status === 'simulated' ? ' (simulated)' : '')),
    missingData: list.filter((s) => s.status === 'unverified' || s.fraction < 0.5).map((s) => s.label + (s.status === 'unverified' ? ' (could not be verified)' : s.status === 'simulated' ? ' (simulated)' : '')),
    details: { ...detailsOf(list), ...extra },
    pageInfo,
    performance,
    security,
    technologies,
    dataPoints,
    totalPossiblePoints,
  });

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
    const insights =
      f === 'overall'
        ? [
            `${r.verified ? `Overall ${r.score}/100 from` : 'No data from'} ${r.dataPoints} verified points of 100${signals.some((s) => s.status === 'simulated') ? ' (the rest simulated or unavailable)' : ''}`,
            ...FACTOR_KEYS.filter((k) => !factors[k].verified).map((k) => `⚠️ ${k} could not be verified and is left out of the overall score`),
          ]
        : list.map(insightFor).filter((i): i is string => i !== null);
    const extra = f === 'visibility' ? visibilityExtra : {};
    (scores as Record<string, unknown>)[f] = {
      score: r.score,
      label: r.label,
      color: r.color,
      verified: r.verified,
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
