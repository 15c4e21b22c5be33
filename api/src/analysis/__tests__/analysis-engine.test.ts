import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { analysisResponseSchema, collectMockSources } from '@site/contracts/analysis';
import { createAnalysisEngine, type AnalysisEngineDeps } from '../analysis-service';
import { WebsiteRefusedError } from '../website/fetch-website';
import type { AnalysisReport } from '../report';
import { html, startFakeProviders, startLocalServer, type FakeProviders, type LocalServer } from './fakes';

const conforms = (report: AnalysisReport) => analysisResponseSchema.parse({ id: 'test-id-123', cached: false, ...report });

const WEBSITE_WITH_LD = `<!doctype html><html><head>
<title>Tony's Pizza | Danville wood-fired pizza</title>
<meta name="description" content="Wood-fired pizza on Hartz Ave in Danville. Order online for pickup or delivery every day.">
<meta name="viewport" content="width=device-width, initial-scale=1">
<script src="https://cdn.shopify.com/s/x.js"></script>
<script async src="https://www.googletagmanager.com/gtm.js?id=GTM-ABC123"></script>
<script src="https://js.stripe.com/v3/"></script>
<script type="application/ld+json">{"@context":"https://schema.org","@type":"Restaurant","name":"Tony's Pizza","telephone":"(925) 555-0199","address":{"@type":"PostalAddress","streetAddress":"123 Hartz Ave","addressLocality":"Danville"}}</script>
</head><body><h1>Tony's Pizza</h1><h2>Menu</h2>
<img src="a.jpg" alt="Margherita"><img src="b.jpg">
<a href="https://www.toasttab.com/tonys">Order online</a>
<a href="tel:+19255550199">Call us</a><a href="mailto:hi@tonys.example">Email</a>
<a href="https://www.facebook.com/tonyspizza">Facebook</a><a href="https://www.instagram.com/tonyspizza">Instagram</a>
<p>${'Fresh dough every morning. '.repeat(80)}</p></body></html>`;

describe('analysis engine with local fake providers', () => {
  let fake: FakeProviders;
  let site: LocalServer;
  let deps: AnalysisEngineDeps;

  beforeAll(async () => {
    fake = await startFakeProviders();
    site = await startLocalServer((req, _b, res) => {
      if (req.url === '/ld') return html(res, WEBSITE_WITH_LD, { 'Strict-Transport-Security': 'max-age=1', 'X-Content-Type-Options': 'nosniff', Server: 'cloudflare' });
      if (req.url === '/bare') return html(res, '<html><body><p>Welcome</p><img src="x.png"></body></html>');
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
    fake.places.website = null;
    fake.places.phone = '(925) 555-0100';
    fake.yelp.scenario = 'found';
  });

  it('uses real provider data when found, with no simulated detail', async () => {
    fake.places.website = `${site.url}/ld`;
    const report = await createAnalysisEngine(deps).analyzeSmb({ businessName: "Tony's Pizza", location: 'Danville, CA' });
    const parsed = conforms(report);
    expect(parsed.businessInfo).toMatchObject({ businessName: "Tony's Pizza", businessType: 'Restaurant', location: 'Danville, CA', website: `${site.url}/ld` });
    expect(collectMockSources(parsed.scores)).toEqual([]);
    expect(parsed.dataSources).toMatchObject({ googlePlaces: 'live', yelp: 'live', website: 'live' });
    const checks = parsed.scores.visibility.evidence.details.evidence.platformChecks;
    expect(checks.googleBusinessProfile).toMatchObject({ status: 'found', found: true, error: null });
    expect(checks.yelp).toMatchObject({ status: 'found', found: true });
    expect(checks.facebook).toMatchObject({ status: 'unknown', found: null });
    expect(checks.facebook.verificationLinks.some((l) => l.url === 'https://www.facebook.com/tonyspizza')).toBe(true);
    // Facebook/Instagram/LinkedIn are unknown, never missing.
    expect(parsed.scores.visibility.evidence.details.missingPlatforms).toEqual([]);
    // Competitive comparison against the 5 fake competitors: rating 4.4 beats 4 of 5, 150 reviews beats 3 of 5.
    expect(parsed.scores.competitiveIntelligence.insights.join(' ')).toMatch(/higher than 80% of 5 local competitors/);
    expect(parsed.scores.competitiveIntelligence.insights.join(' ')).toMatch(/More reviews than 60%/);
    expect(parsed.scores.overall.evidence.dataPoints).toBe(100);
    expect(parsed.scores.overall.evidence.totalPossiblePoints).toBe(100);
    // The website's LocalBusiness phone (555-0199) differs from Google and Yelp (555-0100).
    expect(parsed.scores.visibility.evidence.details.citationConsistency).toBeLessThan(100);
    expect(parsed.scores.visibility.insights.join('\n')).toMatch(/phone on Website \(\(925\) 555-0199\) differs from Google/);
    expect(parsed.recommendations.some((r) => r.title === 'Make your name, address and phone match everywhere')).toBe(true);
    // Known technologies from HTML and headers.
    const tech = parsed.scores.websiteTrust.evidence.technologies.map((t) => t.name);
    expect(tech).toEqual(expect.arrayContaining(['Shopify', 'Google Tag Manager', 'Stripe', 'Toast', 'Cloudflare']));
    expect(parsed.scores.websiteTrust.evidence.performance.score).toBeGreaterThan(0);
    expect(parsed.scores.websiteTrust.evidence.security.source).toMatch(/Checked by our server/);
  });

  it('finds an https-less site with missing meta and says so', async () => {
    fake.places.website = `${site.url}/bare`;
    const parsed = conforms(await createAnalysisEngine(deps).analyzeSmb({ businessName: "Tony's Pizza", location: 'Danville, CA' }));
    const trust = parsed.scores.websiteTrust.insights.join('\n');
    expect(trust).toMatch(/❌ Website is not served over HTTPS/);
    expect(trust).toMatch(/No mobile viewport/);
    const content = parsed.scores.contentQuality.insights.join('\n');
    expect(content).toMatch(/❌ Page title missing/);
    expect(content).toMatch(/❌ Meta description missing/);
    expect(content).toMatch(/0 of 1 images have alt text/);
    expect(content).toMatch(/No online booking or ordering \(customers must call\)/);
    expect(parsed.recommendations.map((r) => r.title)).toEqual(expect.arrayContaining(['Serve your website over HTTPS', 'Take reservations and orders online']));
    // Most valuable first: High before Medium before Low.
    const ranks = parsed.recommendations.map((r) => ({ High: 0, Medium: 1, Low: 2 })[r.priority]);
    expect(ranks).toEqual([...ranks].sort((a, b) => a - b));
  });

  it('reports a business Google and Yelp do not know as missing there', async () => {
    fake.places.scenario = 'not_found';
    fake.yelp.scenario = 'not_found';
    const parsed = conforms(await createAnalysisEngine(deps).analyzeSmb({ businessName: 'Nowhere Plumbing', location: 'Dublin, CA' }));
    expect(parsed.scores.visibility.evidence.details.missingPlatforms.map((p) => p.platform)).toEqual(['Google Business Profile', 'Yelp']);
    expect(parsed.scores.visibility.score).toBe(0);
    expect(parsed.recommendations[0]!.title).toBe('Claim your Google Business Profile');
  });

  for (const scenario of ['error500', 'malformed', 'slow'] as const) {
    it(`keeps going when both providers fail (${scenario}): error evidence, factors unverified`, async () => {
      fake.places.scenario = scenario;
      fake.yelp.scenario = scenario;
      const started = Date.now();
      const parsed = conforms(await createAnalysisEngine({ ...deps, providerTimeoutMs: scenario === 'slow' ? 400 : 2000 }).analyzeSmb({ businessName: "Tony's Pizza", location: 'Danville, CA' }));
      expect(Date.now() - started).toBeLessThan(3000);
      const checks = parsed.scores.visibility.evidence.details.evidence.platformChecks;
      const expected = { error500: /HTTP 500/, malformed: /malformed JSON/, slow: /did not answer/ }[scenario];
      expect(checks.googleBusinessProfile.status).toBe('error');
      expect(checks.googleBusinessProfile.error).toMatch(expected);
      expect(checks.yelp.error).toMatch(expected);
      expect(parsed.scores.reputation).toMatchObject({ score: 0, label: 'Not measured', verified: false });
      // Nothing could be measured: no overall grade rather than a 0 that reads as failing.
      expect(parsed.scores.overall).toMatchObject({ score: 0, label: 'Not enough data', verified: false, factorsMeasured: 0 });
      expect(parsed.scores.reputation.insights[0]).toMatch(/^⚠️ Google reviews could not be verified/);
      expect(parsed.scores.overall.evidence.dataPoints).toBe(0);
      expect(collectMockSources(parsed.scores)).toEqual([]);
    });
  }

  it('without a location leaves competitive insights out', async () => {
    const parsed = conforms(await createAnalysisEngine(deps).analyzeSmb({ businessName: "Tony's Pizza" }));
    expect(parsed.businessInfo.location).toBe('Unknown Location');
    expect(parsed.scores.competitiveIntelligence).toMatchObject({ label: 'Not measured', verified: false });
    expect(parsed.scores.competitiveIntelligence.insights[0]).toMatch(/no location selected/);
  });

  it('website mode analyses the given page and names the business from it', async () => {
    const parsed = conforms(await createAnalysisEngine(deps).analyzeWebsite({ url: `${site.url}/ld`, location: 'Danville, CA' }));
    expect(parsed.mode).toBe('website');
    expect(parsed.businessInfo.businessName).toBe("Tony's Pizza");
    expect(parsed.businessInfo.businessType).toBe('Restaurant');
    expect(parsed.scores.websiteTrust.evidence.pageInfo.url).toBe(`${site.url}/ld`);
  });

  it('website mode refuses private targets with a typed error', async () => {
    const engine = createAnalysisEngine({ ...deps, website: {} });
    await expect(engine.analyzeWebsite({ url: `${site.url}/ld` })).rejects.toBeInstanceOf(WebsiteRefusedError);
    await expect(engine.analyzeWebsite({ url: 'http://169.254.169.254/' })).rejects.toBeInstanceOf(WebsiteRefusedError);
  });

  it('a profile website pointing at a private address is an error in the evidence, not a failure', async () => {
    fake.places.website = 'http://10.0.0.8/';
    const parsed = conforms(await createAnalysisEngine(deps).analyzeSmb({ businessName: "Tony's Pizza", location: 'Danville, CA' }));
    expect(parsed.dataSources.website).toBe('error');
    expect(parsed.scores.websiteTrust).toMatchObject({ verified: false, label: 'Not measured' });
    expect(parsed.scores.websiteTrust.insights[0]).toMatch(/^⚠️ Website not measured: the website address cannot be analyzed \(.*private network address/);
  });
});
