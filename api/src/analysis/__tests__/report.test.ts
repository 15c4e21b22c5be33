import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { analysisResponseSchema, collectMockSources, FACTOR_KEYS, SAMPLE_SOURCES, type AnalysisResponse } from '@site/contracts/analysis';
import { createAnalysisEngine, type AnalysisEngineDeps } from '../analysis-service';
import type { AnalysisReport } from '../report';
import { html, startFakeProviders, startLocalServer, type FakeProviders, type LocalServer } from './fakes';

/* Evidence per point and local standing: what the scorecard shows a reader behind every number. */

const conforms = (report: AnalysisReport): AnalysisResponse => analysisResponseSchema.parse({ id: 'test-id-123', cached: false, ...report });

const PAGE = `<!doctype html><html><head><title>Tony's Pizza | Danville wood-fired pizza</title>
<meta name="viewport" content="width=device-width, initial-scale=1"></head>
<body><h1>Tony's Pizza</h1><p>${'Fresh dough every morning. '.repeat(40)}</p></body></html>`;

/** Points shown per signal add up to the factor score (same ratio the model computes). */
function expectPointsExplainScore(r: AnalysisResponse) {
  for (const f of FACTOR_KEYS) {
    const factor = r.scores[f];
    const counted = factor.evidence.signals!.filter((s) => s.status !== 'unverified');
    if (!factor.verified) {
      expect(counted).toEqual([]);
      continue;
    }
    const earned = counted.reduce((n, s) => n + s.points, 0);
    const possible = counted.reduce((n, s) => n + s.maxPoints, 0);
    expect(Math.abs((100 * earned) / possible - factor.score)).toBeLessThanOrEqual(1.5);
  }
}

describe('report evidence per point (live providers)', () => {
  let fake: FakeProviders;
  let site: LocalServer;
  let deps: AnalysisEngineDeps;

  beforeAll(async () => {
    fake = await startFakeProviders();
    site = await startLocalServer((req, _b, res) => {
      if (req.url === '/') return html(res, PAGE);
      res.writeHead(404).end();
    });
    deps = {
      googlePlacesApiKey: 'test-key',
      yelpApiKey: 'test-key',
      googlePlacesBaseUrl: fake.server.url,
      yelpBaseUrl: fake.server.url,
      providerTimeoutMs: 2000,
      website: { testOnlyAllowLoopback: true, timeoutMs: 2000 },
    };
  });
  afterAll(async () => {
    await fake.server.close();
    await site.close();
  });
  beforeEach(() => {
    fake.places.scenario = 'found';
    fake.yelp.scenario = 'found';
    fake.places.website = `${site.url}/`;
  });

  it('names the source of every live signal, its value in words and a page to verify it', async () => {
    const r = conforms(await createAnalysisEngine(deps).analyzeSmb({ businessName: "Tony's Pizza", location: 'Danville, CA' }));
    const rating = r.scores.reputation.evidence.signals!.find((s) => s.key === 'googleRating')!;
    expect(rating).toMatchObject({ label: 'Google rating', status: 'verified', valueText: '4.4 stars', source: 'Google Places API', maxPoints: 7 });
    expect(rating.verificationUrl).toBe('https://maps.google.com/?cid=1');
    expect(rating.measures).toMatch(/star rating/);
    expect(rating.isMockData).toBeUndefined();

    const yelpReviews = r.scores.reputation.evidence.signals!.find((s) => s.key === 'yelpReviews')!;
    expect(yelpReviews).toMatchObject({ valueText: '88 reviews', source: 'Yelp Fusion API', verificationUrl: 'https://www.yelp.com/biz/tonys-pizza-danville' });

    const https = r.scores.websiteTrust.evidence.signals!.find((s) => s.key === 'https')!;
    expect(https.source).toBe(`Our fetch of ${site.url}/`);
    expect(https.valueText).toBe('Not served over HTTPS');
    expect(https.points).toBe(0);
    expect(https.verificationUrl).toBe(`${site.url}/`);

    // The citation signal is listed although details.citationConsistency holds the percentage (spec field).
    const citation = r.scores.visibility.evidence.signals!.find((s) => s.key === 'citationConsistency')!;
    expect(citation.valueText).toMatch(/% of name, address and phone checks agree$/);
    expect(typeof r.scores.visibility.evidence.details.citationConsistency).toBe('number');

    // Detail entries name their source for live data too.
    expect(r.scores.reputation.evidence.details.googleRating).toMatchObject({ source: 'Google Places API' });
    expect(collectMockSources(r.scores)).toEqual([]);
    expectPointsExplainScore(r);
  });

  it('states the local standing with competitor count, location and business type', async () => {
    const r = conforms(await createAnalysisEngine(deps).analyzeSmb({ businessName: "Tony's Pizza", location: 'Danville, CA' }));
    expect(r.scores.competitiveIntelligence.evidence.details.standing).toEqual({
      location: 'Danville, CA',
      businessType: 'Restaurant',
      competitorCount: 5,
      ratingPercentile: 80,
      reviewPercentile: 60,
      rating: 4.4,
      reviewCount: 150,
      medianReviews: 120,
      reason: null,
    });
  });

  it('says why there is no standing without a location, and why signals are unverified', async () => {
    const r = conforms(await createAnalysisEngine(deps).analyzeSmb({ businessName: "Tony's Pizza" }));
    const standing = r.scores.competitiveIntelligence.evidence.details.standing!;
    expect(standing).toMatchObject({ location: null, competitorCount: null, ratingPercentile: null });
    expect(standing.reason).toBe('No location was selected, so there are no local competitors to compare with.');
    const [first, second] = r.scores.competitiveIntelligence.evidence.signals!;
    expect(first).toMatchObject({ status: 'unverified', points: 0, valueText: 'Not verified: no location was selected' });
    // The second names the same cause, its own, instead of saying nothing.
    expect(second!.valueText).toBe('Not verified: no location was selected');
  });

  it('says the lookup failed when Google fails', async () => {
    fake.places.scenario = 'error500';
    const r = conforms(await createAnalysisEngine(deps).analyzeSmb({ businessName: "Tony's Pizza", location: 'Danville, CA' }));
    expect(r.scores.competitiveIntelligence.evidence.details.standing!.reason).toMatch(/^Local competitors could not be looked up \(.*HTTP 500/);
    const profile = r.scores.visibility.evidence.signals!.find((s) => s.key === 'googleProfile')!;
    expect(profile.source).toMatch(/^Google Places API \(failed: /);
  });
});

describe('the scorecard tells the truth (issue 20)', () => {
  let fake: FakeProviders;
  let heavy: LocalServer;
  let live: AnalysisEngineDeps;

  beforeAll(async () => {
    fake = await startFakeProviders();
    heavy = await startLocalServer((_req, _b, res) => html(res, PAGE));
    live = {
      googlePlacesApiKey: 'test-key',
      yelpApiKey: 'test-key',
      googlePlacesBaseUrl: fake.server.url,
      yelpBaseUrl: fake.server.url,
      providerTimeoutMs: 2000,
      website: { testOnlyAllowLoopback: true, timeoutMs: 2000 },
    };
  });
  afterAll(async () => {
    await fake.server.close();
    await heavy.close();
  });

  it('every "not verified" reason names its own first cause, not a neighbour\'s', async () => {
    fake.places.scenario = 'found';
    fake.yelp.scenario = 'error500';
    // Nothing listens on loopback port 1: the profile's website cannot be reached.
    fake.places.website = 'http://127.0.0.1:1/';
    const r = conforms(await createAnalysisEngine(live).analyzeSmb({ businessName: "Tony's Pizza", location: 'Danville, CA' }));
    const visibility = r.scores.visibility.evidence.signals!;
    const social = visibility.find((s) => s.key === 'socialLinks')!;
    expect(social.valueText).toBe('Not verified: the website could not be reached (its server refused the connection)');
    expect(social.valueText).not.toMatch(/Name, address and phone/);
    const citation = visibility.find((s) => s.key === 'citationConsistency')!;
    // Google is there; Yelp failed (provider error) and the website was not reached: both causes, Yelp's first.
    expect(citation.valueText).toMatch(/^Not verified: name, address and phone could not be compared: .*Yelp could not be checked \(.*HTTP 500\); the website could not be reached/);
    const yelpReviews = r.scores.reputation.evidence.signals!.find((s) => s.key === 'yelpReviews')!;
    expect(yelpReviews.valueText).toMatch(/^Not verified: Yelp could not be checked \(.*HTTP 500\)$/);
    for (const key of ['https', 'performance', 'title', 'booking']) {
      const signal = [...r.scores.websiteTrust.evidence.signals!, ...r.scores.contentQuality.evidence.signals!].find((s) => s.key === key)!;
      expect(signal.valueText, key).toMatch(/^Not verified: the website could not be reached/);
    }
    expect(r.scores.websiteTrust.evidence.performance.source).toMatch(/^Not measured: the website could not be reached/);
  });

  it('lists the phone number without doubled brackets', async () => {
    fake.places.scenario = 'found';
    fake.yelp.scenario = 'found';
    fake.places.website = null;
    const r = conforms(await createAnalysisEngine(live).analyzeSmb({ businessName: "Tony's Pizza", location: 'Danville, CA' }));
    expect(r.scores.profileQuality.insights).toContain('✅ Phone number listed: (925) 555-0100');
    expect(r.scores.profileQuality.insights.join('\n')).not.toContain('((');
  });

  it('an unreachable site in website mode: its factors are "Not measured" and left out; the overall says on how many', async () => {
    const engine = createAnalysisEngine({ website: { resolver: async () => { throw new Error('NXDOMAIN'); }, timeoutMs: 2000 } });
    const r = conforms(await engine.analyzeWebsite({ url: 'https://hartzbistro.example', location: 'Danville, CA' }));
    for (const key of ['websiteTrust', 'contentQuality'] as const) {
      expect(r.scores[key], key).toMatchObject({ verified: false, label: 'Not measured', score: 0 });
      expect(r.scores[key].insights[0]).toBe('⚠️ Website not measured: the website could not be reached (its address was not found)');
    }
    expect(r.scores.overall).toMatchObject({ verified: true, factorsMeasured: 4, sample: true, label: 'Sample score' });
    expect(r.scores.overall.insights[0]).toMatch(/^Overall \d+\/100, based on 4 of 6 factors; 0 of 100 points from verified data$/);
    expect(r.scores.overall.insights).toContain('⚠️ Website Trust was not measured and is left out of the overall score');
    // The four measured factors alone make the overall score (the unmeasured ones are not zeros).
    const counted = FACTOR_KEYS.flatMap((f) => r.scores[f].evidence.signals!).filter((s) => s.status !== 'unverified');
    const ratio = (100 * counted.reduce((n, s) => n + s.points, 0)) / counted.reduce((n, s) => n + s.maxPoints, 0);
    expect(Math.abs(ratio - r.scores.overall.score)).toBeLessThanOrEqual(1);
  });

  it('a page too large or complex to read is said in the owner\'s words', async () => {
    const engine = createAnalysisEngine({ website: { testOnlyAllowLoopback: true, timeoutMs: 2000 }, pageAnalysis: { budgetMs: 1 } });
    const r = conforms(await engine.analyzeWebsite({ url: `${heavy.url}/` }));
    expect(r.dataSources.website).toBe('error');
    expect(r.scores.websiteTrust.insights[0]).toMatch(/^⚠️ Website not measured: the website's page is too large or complex to analyze \(its analysis was stopped after [\d.]+ s\)$/);
    expect(r.scores.contentQuality.evidence.signals![0]!.valueText).toMatch(/^Not verified: the website's page is too large or complex to analyze/);
  });
});

describe('report evidence per point (simulated)', () => {
  it('marks every simulated signal with its simulation source, adding no new mock source', async () => {
    const r = conforms(await createAnalysisEngine({}).analyzeSmb({ businessName: 'Luna Pizza Danville', location: 'Danville, CA' }));
    const all = FACTOR_KEYS.flatMap((f) => r.scores[f].evidence.signals!);
    expect(all).toHaveLength(27);
    for (const s of all.filter((x) => x.status === 'simulated')) {
      expect(s.isMockData).toBe(true);
      expect(Object.values(SAMPLE_SOURCES)).toContain(s.source);
    }
    const sourcesWithoutSignals = collectMockSources(
      Object.fromEntries(FACTOR_KEYS.map((f) => [f, { ...r.scores[f], evidence: { ...r.scores[f].evidence, signals: [] } }])),
    );
    expect(collectMockSources(r.scores)).toEqual(sourcesWithoutSignals);
    const standing = r.scores.competitiveIntelligence.evidence.details.standing!;
    expect(standing).toMatchObject({ location: 'Danville, CA', businessType: 'Restaurant', isMockData: true, reason: null });
    expect(standing.competitorCount).toBeGreaterThanOrEqual(3);
    // A simulated website is fictional: no link to it, but Google and Yelp searches can still be checked.
    expect(r.scores.websiteTrust.evidence.signals!.every((s) => s.verificationUrl === null)).toBe(true);
    expect(r.scores.reputation.evidence.signals![0]!.verificationUrl).toMatch(/^https:\/\/www\.google\.com\/maps\/search\//);
    expectPointsExplainScore(r);
  });
});
