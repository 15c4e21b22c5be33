import { describe, expect, it } from 'vitest';
import { analysisResponseSchema, collectMockSources } from '@site/contracts/analysis';
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
      for (const s of sources) expect(s).toMatch(/^Simulated: .*not configured|^Simulated: no website/);
      // Never a simulated detail without the flag: every entry whose status is 'simulated' carries it.
      walkDetails(parsed.scores, (entry) => {
        if (entry.status === 'simulated') expect(entry).toMatchObject({ isMockData: true, source: expect.stringMatching(/^Simulated/) });
      });
      expect(parsed.scores.overall.evidence.dataPoints).toBe(0);
      expect(parsed.scores.overall.evidence.totalPossiblePoints).toBe(100);
      expect(parsed.scores.visibility.evidence.details.evidence.platformChecks.googleBusinessProfile.isMockData).toBe(true);
    }
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
});
