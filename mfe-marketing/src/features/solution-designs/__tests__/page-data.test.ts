import { describe, expect, it } from 'vitest';
import { expectNoParagraphSharedBetweenTowns, strings } from '../../../test-support/copy-checks';
import { solutionDesigns } from '../data/solution-designs';

describe('solution-design data', () => {
  it('has four complete designs, one per town', () => {
    expect(solutionDesigns.map((d) => d.town)).toEqual(['Danville', 'San Ramon', 'Walnut Creek', 'Pleasanton']);
    for (const d of solutionDesigns) {
      for (const s of strings({ approach: d.approach, challenges: d.challenges, solutions: d.solutions, outcomes: d.outcomes, phases: d.phases }))
        expect(s.trim(), `${d.town}: blank copy`).not.toBe('');
      expect(d.challenges).toHaveLength(2);
      expect(d.solutions).toHaveLength(2);
      expect(d.outcomes).toHaveLength(3);
      expect(d.phases).toHaveLength(3);
      expect(d.meta.jsonLd).toMatchObject({ serviceType: 'AI Automation Solution Design', category: 'Business Process Automation' });
    }
  });

  it('shares no paragraph between towns', () => {
    expectNoParagraphSharedBetweenTowns(
      solutionDesigns.map((d) => ({ town: d.town, copy: [d.lead, d.approach, d.challenges, d.solutions, d.outcomes, d.phases] })),
    );
  });
});
