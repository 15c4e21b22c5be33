import { describe, expect, it } from 'vitest';
import { analysisResponseSchema, collectMockSources, FACTOR_KEYS, SAMPLE_SOURCES } from '@site/contracts/analysis';
import { createAnalysisEngine } from '../analysis-service';
import { SIMULATION_SOURCES } from '../simulation';

/** No keys: nothing leaves the machine, every figure is simulated and says so. */
const engine = () => createAnalysisEngine({ clock: () => new Date('2025-01-15T10:00:00Z') });

function walkDetails(value: unknown, visit: (entry: Record<string, unknown>) => void) {
  if (!value || typeof value !== 'object') return;
  if (Array.isArray(value)) return value.forEach((v) => walkDetails(v, visit));
  visit(value as Record<string, unknown>);
  Object.values(value).forEach((v) => walkDetails(v, visit));
}

describe('simulation without provider keys', () => {
  it('is deterministic per business name and location', async () => {
    const a = await engine().analyzeSmb({ businessName: 'Blue Door Salon', location: 'Walnut Creek, CA' });
    const b = await engine().analyzeSmb({ businessName: '  blue door salon ', location: 'Walnut Creek, CA' });
    const again = await engine().analyzeSmb({ businessName: 'Blue Door Salon', location: 'Walnut Creek, CA' });
    expect(again.scores).toEqual(a.scores);
    expect(again.aiAssessment).toEqual(a.aiAssessment);
    expect(again.recommendations).toEqual(a.recommendations);
    // Case and spacing of the name do not change the figures.
    const numbers = (r: typeof a) => Object.fromEntries(Object.entries(r.scores).map(([k, v]) => [k, v.score]));
    expect(numbers(b)).toEqual(numbers(a));
    expect(b.aiAssessment!.totalPotentialSavings).toBe(a.aiAssessment!.totalPotentialSavings);
    const other = await engine().analyzeSmb({ businessName: 'Blue Door Salon', location: 'Pleasanton, CA' });
    expect(other.scores).not.toEqual(a.scores);
  });

  it('flags every simulated detail with isMockData and a source that says why', async () => {
    for (const [name, location] of [['Golden Dragon Chinese Restaurant', 'Danville, CA'], ['Main Street Boutique', 'Dublin, CA'], ['Smile Dental Clinic', undefined], ['Acme Plumbing', 'San Ramon, CA']] as const) {
      const report = await engine().analyzeSmb({ businessName: name, location });
      const parsed = analysisResponseSchema.parse({ id: 'sim-id-123', cached: false, ...report });
      expect(parsed.dataSources).toMatchObject({ googlePlaces: 'simulated', yelp: 'simulated' });
      const sources = collectMockSources(parsed.scores);
      expect(sources).toEqual(expect.arrayContaining([SIMULATION_SOURCES.googlePlaces, SIMULATION_SOURCES.yelp]));
      // Each provider named once, in the owner's words: what is a sample and which setting makes it real.
      expect(sources.length).toBe(new Set(sources).size);
      for (const s of sources) {
        expect(Object.values(SAMPLE_SOURCES)).toContain(s);
        expect(s).not.toMatch(/API_KEY|Simulated:/);
      }
      // Never a simulated detail without the flag: every entry whose status is 'simulated' carries it.
      walkDetails(parsed.scores, (entry) => {
        if (entry.status === 'simulated') expect(entry).toMatchObject({ isMockData: true, source: expect.stringMatching(/\(sample data: /) });
      });
      expect(parsed.scores.overall.evidence.dataPoints).toBe(0);
      expect(parsed.scores.overall.evidence.totalPossiblePoints).toBe(100);
      expect(parsed.scores.visibility.evidence.details.evidence.platformChecks.googleBusinessProfile.isMockData).toBe(true);
    }
  });

  it('marks every score built from simulated data as a sample, never as the business\'s standing', async () => {
    const parsed = analysisResponseSchema.parse({ id: 'sim-id-123', cached: false, ...(await engine().analyzeSmb({ businessName: 'Hartz Bistro', location: 'Danville, CA' })) });
    for (const key of [...FACTOR_KEYS, 'overall'] as const) {
      const s = parsed.scores[key];
      if (!s.verified) continue;
      expect(s, key).toMatchObject({ sample: true, label: 'Sample score' });
      expect(s.label).not.toMatch(/Excellent|Good|Fair|Poor/);
    }
    expect(parsed.scores.overall.insights).toContain("⚠️ Sample score: built from sample data, not the business's real standing");
    // Every figure derived from it says so: insights, the competitive standing, the assessment handed to the ROI page.
    for (const key of FACTOR_KEYS) for (const line of parsed.scores[key].insights) if (!line.startsWith('⚠️ Social')) expect(line).toMatch(/\(sample data\)$/);
    expect(parsed.scores.competitiveIntelligence.evidence.details.standing).toMatchObject({ isMockData: true, source: SAMPLE_SOURCES.googlePlaces });
    expect(parsed.aiAssessment!.basedOnSampleData).toBe(true);
    // Reports stored with the developer's wording are read in the owner's.
    expect(collectMockSources({ a: { isMockData: true, source: 'Simulated: GOOGLE_PLACES_API_KEY not configured' }, b: { isMockData: true, source: 'Simulated: GOOGLE_PLACES_API_KEY not configured (local competitors)' } })).toEqual([SAMPLE_SOURCES.googlePlaces]);
  });

  it('prices savings with the ROI calculator model and hands over its inputs', async () => {
    const report = await engine().analyzeSmb({ businessName: 'Acme Plumbing', location: 'Danville, CA' });
    const a = report.aiAssessment!;
    const inputs = a.roiCalculatorInputs;
    const weekly = inputs.customerService + inputs.appointmentScheduling + inputs.invoicingAndBilling + inputs.dataEntryAndReporting + inputs.followUpsAndReminders;
    expect(a.totalPotentialSavings).toBe(Math.round(weekly * 4.33 * 25 * 0.7));
    for (const b of a.savingsBreakdown) expect(b.monthlySavings).toBe(Math.round(b.hoursPerWeek * 4.33 * b.costPerHour * (b.efficiencyPercent / 100)));
    expect(a.businessTypeAnalysis.detectedType).toBe('Service Business');
    for (const s of a.automationSignals) expect(s.strength).toBeGreaterThanOrEqual(0);
  });

  it('writes dollars one way in its sentences and its table: $1,212/month, never $1212/month', async () => {
    // A restaurant's customer service is priced at $1,212 a month (the figure the new-user tour saw written twice).
    const report = await engine().analyzeSmb({ businessName: 'Golden Dragon Restaurant', location: 'Danville, CA' });
    const a = report.aiAssessment!;
    const sentences = [...a.topOpportunities, ...Object.values(report.scores).flatMap((s) => s.aiEnhancement?.recommendations ?? [])];
    const amounts = sentences.flatMap((text) => text.match(/\$[\d,]+/g) ?? []);
    expect(amounts.length).toBeGreaterThan(0);
    for (const amount of amounts) expect(amount).toMatch(/^\$\d{1,3}(,\d{3})*$/);
    // Each opportunity's figure is the table's figure for the same task, written the same way.
    const withThousands = a.savingsBreakdown.filter((b) => b.monthlySavings >= 1000);
    expect(withThousands.length, 'a saving of $1,000 or more to write').toBeGreaterThan(0);
    for (const b of withThousands) {
      const written = `$${b.monthlySavings.toLocaleString('en-US')}/month`;
      expect(sentences.some((text) => text.includes(written)), written).toBe(true);
    }
  });
});
