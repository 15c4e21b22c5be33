import { describe, expect, it } from 'vitest';
import { cities } from '../../features/local-pages/data/cities';
import { solutionDesigns } from '../../features/solution-designs/data/solution-designs';

// Links between features are plain paths in each feature's data; only app/ sees both sides, so it checks them.
describe('links between the town pages and the solution designs', () => {
  it('each town page’s case-study button opens its own town’s solution design', () => {
    expect(solutionDesigns.map((d) => d.town)).toEqual(cities.map((c) => c.town));
    cities.forEach((c, i) => expect(c.story.button.target).toEqual({ path: solutionDesigns[i]!.meta.path }));
  });

  it('each solution design links back to its town page', () => {
    for (const d of solutionDesigns) expect(d.townPath).toBe(cities.find((c) => c.town === d.town)!.meta.path);
  });
});
