import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Recommendation } from '@site/contracts/analysis';
import { createAnalysisEngine, type AnalysisEngineDeps } from '../analysis-service';
import { startFakeProviders, type FakeProviders } from './fakes';

/*
 * The Action Plan reads as sentences: a finding, then why it matters. A signal with no finding to state (no Google
 * profile: no review count to quote) gives the sentence alone, never ". Review count is one of…" (issue 54, item 4).
 */

/** What is wrong with an item's text as a reader sees it, or [] when it reads cleanly. */
function roughEdges(r: Recommendation): string[] {
  return [r.title, r.description, ...r.actions].flatMap((text) => [
    ...(/^[\s.,;:!?)]/.test(text) ? [`starts with punctuation: "${text}"`] : []),
    ...(/\.\s*\./.test(text) ? [`". ." or "..": "${text}"`] : []),
    ...(/\s{2,}/.test(text) ? [`double space: "${text}"`] : []),
    ...(text !== text.trim() ? [`padded: "${text}"`] : []),
  ]);
}

describe('Action Plan wording', () => {
  let fake: FakeProviders;
  let deps: AnalysisEngineDeps;

  beforeAll(async () => {
    fake = await startFakeProviders();
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
  });
  beforeEach(() => {
    fake.places.scenario = 'found';
    fake.places.website = null;
    fake.yelp.scenario = 'found';
  });

  it('a business Google does not know, with competitors nearby: the reviews item is a clean sentence', async () => {
    fake.places.scenario = 'not_found';
    const report = await createAnalysisEngine(deps).analyzeSmb({ businessName: 'Nowhere Nails', location: 'Danville, CA' });
    const reviews = report.recommendations.find((r) => r.title === 'Catch up with local competitors on reviews');
    expect(reviews?.description).toBe('Review count is one of the strongest local ranking and trust signals.');
    expect(report.recommendations.flatMap(roughEdges)).toEqual([]);
  });

  it('without a location (no competitors to compare): the Google reviews item is a clean sentence', async () => {
    fake.places.scenario = 'not_found';
    const report = await createAnalysisEngine(deps).analyzeSmb({ businessName: 'Nowhere Nails' });
    const reviews = report.recommendations.find((r) => r.title === 'Collect more Google reviews');
    expect(reviews?.description).toBe('Customers trust businesses with a steady stream of recent reviews.');
    expect(report.recommendations.flatMap(roughEdges)).toEqual([]);
  });

  it('a profile without a website is told to create one, not to fix the headers and alt text of a site it has not got', async () => {
    const report = await createAnalysisEngine(deps).analyzeSmb({ businessName: "Tony's Pizza", location: 'Danville, CA' });
    const titles = report.recommendations.map((r) => r.title);
    expect(titles).toContain('Create a simple, fast website');
    for (const title of ['Add basic security headers', 'Speed up your website', 'Describe your images', 'Say more about your services', 'Show how to reach you on every page', 'Add LocalBusiness structured data']) {
      expect(titles).not.toContain(title);
    }
    expect(report.recommendations.flatMap(roughEdges)).toEqual([]);
  });

  it('no item of any sample report starts with punctuation or holds ". ." or a double space', async () => {
    // Sample data (no keys) varies with the name: some businesses have no profile, no website, few reviews.
    const engine = createAnalysisEngine({});
    const types = ['Salon', 'Plumbing', 'Pizza Restaurant', 'Boutique', 'Dental Clinic', 'Auto Repair'];
    const towns = ['Danville, CA', 'San Ramon, CA', undefined];
    const problems: string[] = [];
    let withoutProfile = 0;
    for (let i = 0; i < 120; i++) {
      const report = await engine.analyzeSmb({ businessName: `Sample ${types[i % types.length]} ${i}`, location: towns[i % towns.length] });
      if (report.scores.visibility.evidence.signals?.find((s) => s.key === 'googleProfile')?.points === 0) withoutProfile++;
      problems.push(...report.recommendations.flatMap(roughEdges));
    }
    expect(withoutProfile, 'some sample businesses without a Google profile').toBeGreaterThan(0);
    expect(problems).toEqual([]);
  });
});
