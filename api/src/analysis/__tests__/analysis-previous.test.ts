import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { analysisResponseSchema, FACTOR_KEYS, type AnalysisResponse } from '@site/contracts/analysis';
import { testBackends, uniqueSchema } from '../../test-support/databases';
import { startTestServer, type TestServer } from '../../test-support/test-server';
import type { Resolver } from '../website/fetch-website';
import { html, startLocalServer, type LocalServer } from './fakes';

/*
 * "What changed": an analysis answer carries the latest earlier report of the same business (name, location, website)
 * (`previous`), whatever its age; the 24-hour cached answer is the same report, so it is never its own previous.
 */

const post = (url: string, path: string, body: unknown) =>
  fetch(`${url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

const DAY = 24 * 60 * 60 * 1000;

describe.each(testBackends().map((b) => b.name))('analysis previous report (%s)', (backend) => {
  let server: TestServer;
  const schema = uniqueSchema();
  let now = new Date('2025-03-01T10:00:00.000Z');
  const advance = (ms: number) => (now = new Date(now.getTime() + ms));

  const analyze = async (body: Record<string, unknown>): Promise<AnalysisResponse> => {
    const res = await post(server.url, '/api/analyze-smb-business', body);
    expect(res.status).toBe(200);
    return analysisResponseSchema.parse(await res.json());
  };
  const get = async (id: string) => analysisResponseSchema.parse(await (await fetch(`${server.url}/api/analyses/${id}`)).json());
  // A sample or unmeasured score is not a score to compare with: the previous report carries null for it.
  const scoresOf = (r: AnalysisResponse) =>
    Object.fromEntries([...FACTOR_KEYS, 'overall' as const].map((k) => [k, r.scores[k].verified && !r.scores[k].sample ? r.scores[k].score : null]));

  beforeAll(async () => {
    server = await startTestServer({
      env: backend === 'postgres' ? { DATABASE_URL: process.env.TEST_DATABASE_URL } : {},
      deps: { clock: () => now, ...(backend === 'postgres' ? { database: { pgSchema: schema } } : {}) },
    });
  });
  afterAll(async () => {
    await server.close();
  });

  it('a first analysis has no previous report', async () => {
    const first = await analyze({ businessName: 'Oak Tree Plumbing', location: 'Danville, CA' });
    expect(first.previous ?? null).toBeNull();
    expect((await get(first.id)).previous ?? null).toBeNull();
  });

  it('the cached answer within 24 hours is the same report, without itself as previous', async () => {
    advance(60 * 60 * 1000);
    const cached = await analyze({ businessName: 'oak tree plumbing ', location: 'Danville, CA' });
    expect(cached.cached).toBe(true);
    expect(cached.previous ?? null).toBeNull();
  });

  it('a new analysis after 24 hours names the earlier report, its date and its scores; GET says the same', async () => {
    const first = await get((await analyze({ businessName: 'Oak Tree Plumbing', location: 'Danville, CA' })).id);
    advance(2 * DAY);
    const second = await analyze({ businessName: 'Oak Tree Plumbing', location: 'Danville, CA' });
    expect(second.cached).toBe(false);
    expect(second.id).not.toBe(first.id);
    expect(second.previous).toEqual({ id: first.id, analyzedAt: first.analyzedAt, scores: scoresOf(first) });
    // Without keys every score is a sample: a "+5 since last time" between two samples would be made up.
    expect(Object.values(second.previous!.scores).every((v) => v === null)).toBe(true);
    expect((await get(second.id)).previous).toEqual(second.previous);
    // The earlier report has nothing before it; a cached repeat of the second keeps pointing at the first.
    expect((await get(first.id)).previous ?? null).toBeNull();
    advance(60 * 1000);
    const repeat = await analyze({ businessName: 'OAK TREE PLUMBING', location: 'Danville, CA' });
    expect(repeat).toMatchObject({ id: second.id, cached: true });
    expect(repeat.previous?.id).toBe(first.id);

    // Any age: a third, a month later, points at the second (the latest earlier one).
    advance(30 * DAY);
    const third = await analyze({ businessName: 'Oak Tree Plumbing', location: 'Danville, CA' });
    expect(third.previous?.id).toBe(second.id);
  });

  it('another location, another name or no location is another business', async () => {
    advance(3 * DAY);
    const dublin = await analyze({ businessName: 'Oak Tree Plumbing', location: 'Dublin, CA' });
    expect(dublin.previous ?? null).toBeNull();
    const longer = await analyze({ businessName: 'Oak Tree Plumbing and Heating', location: 'Danville, CA' });
    expect(longer.previous ?? null).toBeNull();
    const none = await analyze({ businessName: 'Oak Tree Plumbing' });
    expect(none.previous ?? null).toBeNull();
    advance(2 * DAY);
    const noneAgain = await analyze({ businessName: 'Oak Tree Plumbing' });
    expect(noneAgain.previous?.id).toBe(none.id);
    // A name containing the key separator cannot borrow another business's history.
    const tricky = await analyze({ businessName: 'Oak Tree Plumbing|danville, ca' });
    expect(tricky.previous ?? null).toBeNull();
  });
});

/** Only loopback names resolve here: every `*.test` website is the local test site (never real DNS). */
const loopbackResolver: Resolver = async (host) => {
  if (host.endsWith('.test')) return [{ address: '127.0.0.1', family: 4 }];
  throw new Error(`unexpected lookup of ${host}`);
};

/*
 * Two businesses of one name in one town, each with its own website, are two businesses: a report of one is never
 * "your previous report" of the other (issue 54, item 4). The website is compared as one business's: host without
 * www. and in any case, path without its trailing slash; a report without a website matches only another without.
 */
describe.each(testBackends().map((b) => b.name))('previous report keyed on the website too (%s)', (backend) => {
  let server: TestServer;
  let site: LocalServer;
  const schema = uniqueSchema();
  let now = new Date('2025-06-01T10:00:00.000Z');
  const later = () => (now = new Date(now.getTime() + 2 * DAY));
  /** The latest report of bella-salon.test (the first test's). */
  let bellaLatest = '';

  const analyze = async (body: Record<string, unknown>): Promise<AnalysisResponse> => {
    const res = await post(server.url, '/api/analyze-smb-business', body);
    expect(res.status).toBe(200);
    const answer = analysisResponseSchema.parse(await res.json());
    expect(answer.cached).toBe(false);
    return answer;
  };
  const get = async (id: string) => analysisResponseSchema.parse(await (await fetch(`${server.url}/api/analyses/${id}`)).json());

  beforeAll(async () => {
    site = await startLocalServer((_req, _b, res) => html(res, '<html><head><title>Bella Salon | Danville</title></head><body><h1>Bella Salon</h1></body></html>'));
    server = await startTestServer({
      env: backend === 'postgres' ? { DATABASE_URL: process.env.TEST_DATABASE_URL } : {},
      deps: {
        clock: () => now,
        ...(backend === 'postgres' ? { database: { pgSchema: schema } } : {}),
        analysis: { website: { testOnlyAllowLoopback: true, resolver: loopbackResolver, timeoutMs: 2000 } },
      },
    });
  });
  afterAll(async () => {
    await server?.close();
    await site?.close();
  });

  it('same name and town with another website: not compared; the same website: compared', async () => {
    const town = { businessName: 'Bella Salon', location: 'Danville, CA' };
    const first = await analyze({ ...town, website: `http://bella-salon.test:${site.port}/` });
    expect(first.businessInfo.website).toBe(`http://bella-salon.test:${site.port}/`);
    expect(first.previous ?? null).toBeNull();

    later();
    const other = await analyze({ ...town, website: `http://bellasalon-danville.test:${site.port}/` });
    expect(other.previous ?? null, 'another website is another business').toBeNull();
    expect((await get(other.id)).previous ?? null).toBeNull();

    later();
    // The same website written another way: www., capitals, no trailing slash.
    const again = await analyze({ ...town, website: `HTTP://www.Bella-Salon.test:${site.port}` });
    expect(again.previous?.id).toBe(first.id);
    expect((await get(again.id)).previous?.id).toBe(first.id);
    bellaLatest = again.id;

    later();
    const otherAgain = await analyze({ ...town, website: `http://bellasalon-danville.test:${site.port}/` });
    expect(otherAgain.previous?.id, 'the other business keeps its own history').toBe(other.id);
  });

  it('a report without a website matches only another without one', async () => {
    const town = { businessName: 'Bella Salon', location: 'Danville, CA' };
    later();
    // Without keys the website Google would give is a sample: the report has no website of its own.
    const none = await analyze(town);
    expect(none.businessInfo.website).toBe('');
    expect(none.previous ?? null, 'the reports with a website are other businesses').toBeNull();
    later();
    const noneAgain = await analyze(town);
    expect(noneAgain.previous?.id).toBe(none.id);
    later();
    const withSite = await analyze({ ...town, website: `http://bella-salon.test:${site.port}/` });
    expect(withSite.previous?.id, 'the latest report of this website, not the one without').toBe(bellaLatest);
  });

  it('website mode: the same site written another way is the same business; another site or town is not', async () => {
    const analyzeSite = async (url: string, location?: string): Promise<AnalysisResponse> => {
      const res = await post(server.url, '/api/analyze-website', { url, mode: 'website', ...(location ? { location } : {}) });
      expect(res.status).toBe(200);
      const answer = analysisResponseSchema.parse(await res.json());
      expect(answer.cached).toBe(false);
      return answer;
    };
    later();
    const first = await analyzeSite(`http://bella-salon.test:${site.port}/`, 'Danville, CA');
    expect(first.previous ?? null).toBeNull();
    later();
    const other = await analyzeSite(`http://bellasalon-danville.test:${site.port}/`, 'Danville, CA');
    expect(other.previous ?? null, 'another website is another business').toBeNull();
    const elsewhere = await analyzeSite(`http://bella-salon.test:${site.port}/`, 'Dublin, CA');
    expect(elsewhere.previous ?? null, 'another town is another business').toBeNull();
    later();
    // www., capitals, no trailing slash, a tracking query: the website the owner analyzed before.
    const again = await analyzeSite(`HTTP://www.Bella-Salon.test:${site.port}?utm_source=gbp`, 'danville, ca');
    expect(again.previous?.id).toBe(first.id);
    expect((await get(again.id)).previous?.id).toBe(first.id);
    // An SMB report of the same website is not a website-mode report's previous one (another kind of report).
    expect(again.previous?.id).not.toBe(bellaLatest);
  });
});
