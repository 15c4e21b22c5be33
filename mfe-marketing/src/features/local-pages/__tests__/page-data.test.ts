import { describe, expect, it } from 'vitest';
import { SITE } from '@site/ui';
import { pageMetaSchema } from '@site/contracts/manifest';
import { cities } from '../data/cities';
import { solutionDesigns } from '../../solution-designs/data/solution-designs';

/** Every string reachable in an object, for "no blank copy" and "no paragraph repeated" checks. */
function strings(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (Array.isArray(value)) return value.flatMap(strings);
  if (value && typeof value === 'object') return Object.values(value).flatMap(strings);
  return [];
}

/** Copy long enough to be a sentence of its own (labels and button names may repeat by design). */
const paragraphs = (value: unknown) => strings(value).filter((s) => s.length >= 60);

/** A paragraph with the town name taken out: catches copy pasted with only the town swapped. */
const normalised = (text: string, town: string) => text.replaceAll(town, '{town}').toLowerCase();

describe('city page data', () => {
  it('has the four towns with their page ids, badges and a complete page each', () => {
    expect(cities.map((c) => [c.town, c.pageId, c.indexCard.badge])).toEqual([
      ['Danville', 'danville_local_page', 'DANVILLE20'],
      ['San Ramon', 'san_ramon_local_page', 'TECH HUB'],
      ['Walnut Creek', 'walnut_creek_local_page', 'DOWNTOWN'],
      ['Pleasanton', 'pleasanton_local_page', 'INDUSTRY'],
    ]);
    for (const c of cities) {
      const copy = { hero: c.hero, why: c.why, services: c.services, story: c.story, cta: c.cta, indexCard: c.indexCard };
      for (const s of strings(copy)) expect(s.trim(), `${c.town}: blank copy`).not.toBe('');
      expect(c.why.items).toHaveLength(3);
      expect(c.services.cards).toHaveLength(2);
      for (const card of c.services.cards) expect(card.bullets).toHaveLength(4);
      expect(c.story.highlights).toHaveLength(3);
      expect(pageMetaSchema.parse(c.meta).path).toBe(`/local-services/${c.slug}`);
    }
  });

  it('uses the spec’s button wording, with Walnut Creek’s differences', () => {
    const labels = (c: (typeof cities)[number]) => ({
      hero: [c.hero.primary.label, c.hero.secondary.label],
      story: c.story.button.label,
      cta: c.cta.buttons.map((b) => b.label),
    });
    const [danville, sanRamon, walnutCreek, pleasanton] = cities;
    for (const c of [danville!, sanRamon!, pleasanton!]) {
      expect(labels(c).hero).toEqual(['Get Launch Pricing', 'See Our Approach']);
      expect([c.hero.primary.busyLabel, c.hero.secondary.busyLabel]).toEqual(['Getting Launch Pricing...', 'Loading...']);
    }
    expect(labels(danville!).story).toBe('See Our Approach');
    expect(labels(sanRamon!).story).toBe('Read Full Case Study');
    expect(labels(pleasanton!).story).toBe('See Our Approach');
    expect(labels(walnutCreek!)).toEqual({
      hero: ['Claim Launch Pricing', 'Schedule Consultation'],
      story: 'Read Full Case Study',
      cta: ['Get Free AI Assessment', 'Schedule Demo'],
    });
    // Walnut Creek's case-study button and bottom band have no busy state.
    expect([walnutCreek!.story.button, ...walnutCreek!.cta.buttons].map((b) => b.busyLabel)).toEqual([undefined, undefined, undefined]);
    // Each case-study button leads to its own town's solution design.
    cities.forEach((c, i) => expect(c.story.button.target).toEqual({ path: solutionDesigns[i]!.meta.path }));
  });

  it('carries local-business JSON-LD with contact facts from the one site config', () => {
    for (const c of cities) {
      const ld = [c.meta.jsonLd].flat()[0] as Record<string, any>;
      expect(ld).toMatchObject({
        telephone: SITE.phone,
        email: SITE.email,
        priceRange: '$$',
        openingHours: 'Mo-Fr 09:00-17:00',
        serviceArea: { geoRadius: 5000 },
        geo: c.geo,
      });
    }
    const danville = [cities[0]!.meta.jsonLd].flat() as Record<string, any>[];
    expect(danville[1]!.serviceArea.geoRadius).toBe(50000);
  });
});

describe('solution-design data', () => {
  it('has four complete designs, one per town, in the same order as the towns', () => {
    expect(solutionDesigns.map((d) => d.town)).toEqual(cities.map((c) => c.town));
    for (const d of solutionDesigns) {
      expect(d.townPath).toBe(cities.find((c) => c.town === d.town)!.meta.path);
      for (const s of strings({ approach: d.approach, challenges: d.challenges, solutions: d.solutions, outcomes: d.outcomes, phases: d.phases }))
        expect(s.trim(), `${d.town}: blank copy`).not.toBe('');
      expect(d.challenges).toHaveLength(2);
      expect(d.solutions).toHaveLength(2);
      expect(d.outcomes).toHaveLength(3);
      expect(d.phases).toHaveLength(3);
      expect(d.meta.jsonLd).toMatchObject({ serviceType: 'AI Automation Solution Design', category: 'Business Process Automation' });
    }
  });
});

describe('no paragraph is shared between towns', () => {
  const sets = [
    { kind: 'city', items: cities.map((c) => ({ town: c.town, copy: [c.hero, c.why, c.services, c.story, c.cta, c.indexCard] })) },
    { kind: 'solution design', items: solutionDesigns.map((d) => ({ town: d.town, copy: [d.lead, d.approach, d.challenges, d.solutions, d.outcomes, d.phases] })) },
  ];
  for (const { kind, items } of sets) {
    it(`${kind} pages`, () => {
      const seen = new Map<string, string>();
      for (const { town, copy } of items) {
        for (const p of paragraphs(copy)) {
          const key = normalised(p, town);
          const other = seen.get(key);
          expect(other === undefined || other === town, `"${p}" appears for ${town} and ${other}`).toBe(true);
          seen.set(key, town);
        }
      }
      expect(seen.size).toBeGreaterThan(items.length * 10);
    });
  }
});
