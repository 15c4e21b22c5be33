import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { analysisResponseSchema, collectMockSources, SAMPLE_SOURCES, smbAnalysisRequestSchema } from '@site/contracts/analysis';
import { errorEnvelopeSchema } from '@site/contracts/error';
import { testBackends, uniqueSchema } from '../../test-support/databases';
import { startTestServer, type TestServer } from '../../test-support/test-server';
import { html, startFakeProviders, startLocalServer, type FakeProviders, type LocalServer } from './fakes';
import type { Resolver } from '../website/fetch-website';
import { analysisRoutes } from '../analysis-routes';

const post = (url: string, path: string, body: unknown) =>
  fetch(`${url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: typeof body === 'string' ? body : JSON.stringify(body) });

/** Only loopback names resolve in these tests; anything else would be a test bug, never real DNS. */
const loopbackResolver: Resolver = async (host) => {
  if (host.endsWith('.test')) return [{ address: '127.0.0.1', family: 4 }];
  throw new Error(`unexpected lookup of ${host}`);
};

describe.each(testBackends().map((b) => b.name))('analysis API (%s)', (backend) => {
  let server: TestServer;
  let site: LocalServer;
  const schema = uniqueSchema();

  beforeAll(async () => {
    site = await startLocalServer((req, _b, res) => {
      if (req.url === '/') return html(res, '<html><head><title>Blue Door Salon | Walnut Creek</title><meta name="viewport" content="width=device-width"></head><body><h1>Blue Door Salon</h1><a href="https://calendly.com/bluedoor">Book now</a></body></html>');
      res.writeHead(404).end();
    });
    server = await startTestServer({
      env: backend === 'postgres' ? { DATABASE_URL: process.env.TEST_DATABASE_URL } : {},
      deps: {
        ...(backend === 'postgres' ? { database: { pgSchema: schema } } : {}),
        analysis: { website: { testOnlyAllowLoopback: true, resolver: loopbackResolver, timeoutMs: 2000 } },
      },
    });
  });
  afterAll(async () => {
    await server.close();
    await site.close();
  });

  it('analyses an SMB without keys: simulated, flagged, stored, and cached for 24 hours', async () => {
    const res = await post(server.url, '/api/analyze-smb-business', { businessName: 'Sunrise Cafe', location: 'San Ramon, CA' });
    expect(res.status).toBe(200);
    const first = analysisResponseSchema.parse(await res.json());
    expect(first.cached).toBe(false);
    expect(first.businessInfo).toMatchObject({ businessName: 'Sunrise Cafe', businessType: 'Restaurant', location: 'San Ramon, CA' });
    expect(collectMockSources(first.scores)).toContain(SAMPLE_SOURCES.googlePlaces);

    const again = analysisResponseSchema.parse(await (await post(server.url, '/api/analyze-smb-business', { businessName: 'sunrise cafe ', location: 'San Ramon, CA' })).json());
    expect(again).toMatchObject({ id: first.id, cached: true, analyzedAt: first.analyzedAt });
    // The time in words, in the businesses' time zone, not an ISO timestamp.
    expect(again.cacheNote).toMatch(/^Stored analysis from [A-Z][a-z]+ \d{1,2}, \d{4} at \d{1,2}:\d\d [AP]M P[SD]T: the same business and location are re-analyzed after 24 hours\.$/);

    const other = analysisResponseSchema.parse(await (await post(server.url, '/api/analyze-smb-business', { businessName: 'Sunrise Cafe', location: 'Dublin, CA' })).json());
    expect(other.id).not.toBe(first.id);

    const shared = await fetch(`${server.url}/api/analyses/${first.id}`);
    expect(shared.status).toBe(200);
    const stored = analysisResponseSchema.parse(await shared.json());
    expect(stored.scores).toEqual(first.scores);
  });

  it('infers the business type from the name when absent and keeps an explicit one', async () => {
    const inferred = analysisResponseSchema.parse(await (await post(server.url, '/api/analyze-smb-business', { businessName: 'Bright Smile Dental' })).json());
    expect(inferred.businessInfo).toMatchObject({ businessType: 'Healthcare', location: 'Unknown Location' });
    const explicit = analysisResponseSchema.parse(await (await post(server.url, '/api/analyze-smb-business', { businessName: 'Pizza Planet', businessType: 'Retail' })).json());
    expect(explicit.businessInfo.businessType).toBe('Retail');
  });

  it('answers 404 with the envelope for an unknown analysis', async () => {
    for (const id of ['doesnotexist123', '..%2F..%2Fetc']) {
      const res = await fetch(`${server.url}/api/analyses/${id}`);
      expect(res.status).toBe(404);
      expect(errorEnvelopeSchema.parse(await res.json()).error.code).toBe('not_found');
    }
  });

  it('refuses invalid input with 400 and the envelope', async () => {
    for (const [path, body] of [
      ['/api/analyze-smb-business', {}],
      ['/api/analyze-smb-business', { businessName: '   ' }],
      ['/api/analyze-smb-business', { businessName: 'x'.repeat(200) }],
      ['/api/analyze-website', { mode: 'website' }],
      ['/api/analyze-website', { url: 'https://ok.test/' }],
      ['/api/analyze-website', '{not json'],
    ] as const) {
      const res = await post(server.url, path, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(errorEnvelopeSchema.safeParse(await res.json()).success).toBe(true);
    }
  });

  it('analyses a local website, adding https:// when the scheme is missing', async () => {
    const res = await post(server.url, '/api/analyze-website', { url: `http://bluedoor.test:${site.port}/`, mode: 'website', location: 'Walnut Creek, CA' });
    expect(res.status).toBe(200);
    const parsed = analysisResponseSchema.parse(await res.json());
    expect(parsed.businessInfo).toMatchObject({ businessName: 'Blue Door Salon', businessType: 'Service' });
    expect(parsed.scores.contentQuality.insights.join('\n')).toMatch(/✅ Online booking or ordering available/);
    expect(parsed.scores.websiteTrust.evidence.technologies.map((t) => t.name)).toContain('Calendly');

    // No scheme: https:// is added (nothing listens on 443 here, so the website evidence carries the error).
    const bare = analysisResponseSchema.parse(await (await post(server.url, '/api/analyze-website', { url: 'noscheme.test', mode: 'website' })).json());
    expect(bare.businessInfo.website).toBe('https://noscheme.test');
    expect(bare.dataSources.website).toBe('error');
  });

  it('the SMB website takes the same address rule as website mode: no scheme is fine, https:// is added', async () => {
    const res = await post(server.url, '/api/analyze-smb-business', { businessName: 'Hartz Avenue Bistro', location: 'Danville, CA', website: 'hartzbistro.test' });
    expect(res.status).toBe(200);
    const parsed = analysisResponseSchema.parse(await res.json());
    expect(parsed.businessInfo.website).toBe('https://hartzbistro.test');
    expect(parsed.dataSources.website).toBe('error');
    // The documented example (OpenAPI) is what the route accepts, with the same normalisation.
    const documented = analysisRoutes.endpoints.find((e) => e.path === '/api/analyze-smb-business')!.body!.example as Record<string, unknown>;
    expect(smbAnalysisRequestSchema.parse(documented).website).toBe(`https://${String(documented.website)}`);
    // A bad address is a field error in words, not a refusal of the fetcher.
    const bad = await post(server.url, '/api/analyze-smb-business', { businessName: 'Hartz Avenue Bistro', website: 'http://exa mple' });
    expect(bad.status).toBe(400);
    expect(errorEnvelopeSchema.parse(await bad.json()).error).toMatchObject({ code: 'validation_failed', details: [{ path: 'website', message: 'Enter a valid website address' }] });
  });
});

describe('analysis API: SSRF refusals, rate limit, live providers', () => {
  let server: TestServer;
  let fake: FakeProviders;

  beforeAll(async () => {
    fake = await startFakeProviders();
    // No loopback allowance here: the production posture.
    server = await startTestServer({
      env: { GOOGLE_PLACES_API_KEY: 'k', YELP_API_KEY: 'k' },
      deps: { analysis: { googlePlacesBaseUrl: fake.server.url, yelpBaseUrl: fake.server.url, providerTimeoutMs: 2000 } },
    });
  });
  afterAll(async () => {
    await server.close();
    await fake.server.close();
  });

  it('uses the live providers when keys are configured', async () => {
    const parsed = analysisResponseSchema.parse(await (await post(server.url, '/api/analyze-smb-business', { businessName: "Tony's Pizza", location: 'Danville, CA' })).json());
    expect(parsed.dataSources).toMatchObject({ googlePlaces: 'live', yelp: 'live' });
    expect(collectMockSources(parsed.scores)).toEqual([]);
    expect(fake.server.requests.some((r) => r.path === '/v1/places:searchText' && r.headers['x-goog-api-key'] === 'k')).toBe(true);
  });

  it('refuses private and loopback targets with 400 and a clear message', async () => {
    for (const url of ['http://127.0.0.1/', 'localhost', 'http://169.254.169.254/latest/meta-data/', 'http://[::1]/', 'http://0x7f000001/', 'http://10.0.0.1/']) {
      const res = await post(server.url, '/api/analyze-website', { url, mode: 'website' });
      expect(res.status, url).toBe(400);
      const body = errorEnvelopeSchema.parse(await res.json());
      expect(body.error.code).toBe('website_refused');
      expect(body.error.message).toMatch(/^This website cannot be analyzed: /);
    }
    const smb = await post(server.url, '/api/analyze-smb-business', { businessName: 'Tony', website: 'http://192.168.0.1/' });
    expect(smb.status).toBe(400);
  });

  it('limits each IP to 20 analyses an hour (429 with Retry-After)', async () => {
    // The earlier tests in this block used 8 of the 20.
    let status = 0;
    let res: Response | undefined;
    for (let i = 0; i < 30 && status !== 429; i++) {
      res = await post(server.url, '/api/analyze-smb-business', {});
      status = res.status;
    }
    expect(status).toBe(429);
    expect(Number(res!.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(errorEnvelopeSchema.parse(await res!.json()).error.code).toBe('rate_limited');
  });
});
