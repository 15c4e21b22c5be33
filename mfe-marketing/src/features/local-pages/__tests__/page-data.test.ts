import { describe, expect, it } from 'vitest';
import { SITE } from '@site/ui';
import { pageMetaSchema } from '@site/contracts/manifest';
import { expectNoParagraphSharedBetweenTowns, strings } from '../../../test-support/copy-checks';
import { cities } from '../data/cities';

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
  });

  it('carries local-business JSON-LD with contact facts from the one site config', () => {
    for (const c of cities) {
      const ld = [c.meta.jsonLd].flat()[0];
      expect(ld).toMatchObject({
        telephone: SITE.phone,
        email: SITE.email,
        priceRange: '$$',
        openingHours: 'Mo-Fr 09:00-18:00',
        serviceArea: { geoRadius: 5000 },
        geo: c.geo,
      });
    }
    const danville = [cities[0]!.meta.jsonLd].flat();
    expect(danville[1]).toMatchObject({ serviceArea: { geoRadius: 50000 } });
  });
});

describe("the town pages' hours (issue 54, item 3)", () => {
  /** schema.org's `Mo-Fr 09:00-18:00` as a visitor reads hours: `Mon-Fri 9AM-6PM`. */
  const asShown = (openingHours: string) => {
    const [, from, to, opens, closes] = /^(\w\w)-(\w\w) (\d\d):00-(\d\d):00$/.exec(openingHours) ?? [];
    const day = (d = '') => ({ Mo: 'Mon', Tu: 'Tue', We: 'Wed', Th: 'Thu', Fr: 'Fri', Sa: 'Sat', Su: 'Sun' })[d];
    const clock = (h = '') => `${Number(h) % 12 || 12}${Number(h) < 12 ? 'AM' : 'PM'}`;
    return `${day(from)}-${day(to)} ${clock(opens)}-${clock(closes)}`;
  };

  it('in structured data are the hours every page shows (Mon-Fri 9AM-6PM)', () => {
    expect(SITE.hours).toBe('Mon-Fri 9AM-6PM');
    for (const c of cities) {
      for (const block of [c.meta.jsonLd].flat() as { openingHours?: string }[]) {
        expect(asShown(block.openingHours ?? ''), `${c.town}: ${block.openingHours}`).toBe(SITE.hours);
      }
    }
  });
});

describe('no paragraph is shared between towns', () => {
  it('city pages', () => {
    expectNoParagraphSharedBetweenTowns(cities.map((c) => ({ town: c.town, copy: [c.hero, c.why, c.services, c.story, c.cta, c.indexCard] })));
  });
});
