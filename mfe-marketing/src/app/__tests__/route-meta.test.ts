import { describe, expect, it } from 'vitest';
import { caseStudies } from '../../features/case-studies/data/case-studies';
import { caseStudyRoutes } from '../../features/case-studies/data/case-study-meta';
import { cities } from '../../features/local-pages/data/cities';
import { cityRoutes } from '../../features/local-pages/data/city-meta';
import { solutionDesignRoutes } from '../../features/solution-designs/data/solution-design-meta';
import { solutionDesigns } from '../../features/solution-designs/data/solution-designs';

// The route table declares pages from the *-meta.ts files; each page's copy lives apart. A route without copy would
// render the not-found page with a 200, copy without a route would never be shown: the two lists must match.
describe('route metadata and page copy', () => {
  it('has one town page per city, in order, each with its own metadata', () => {
    expect(cityRoutes.map((r) => r.slug)).toEqual(cities.map((c) => c.slug));
    for (const { slug, meta } of cityRoutes) {
      expect(meta.path).toBe(`/local-services/${slug}`);
      expect(cities.find((c) => c.slug === slug)!.meta).toBe(meta);
    }
  });

  it('has one solution-design page per design, with the headline, town and industry its metadata names', () => {
    expect(solutionDesignRoutes.map((r) => r.slug)).toEqual(solutionDesigns.map((d) => d.slug));
    for (const { slug, meta } of solutionDesignRoutes) {
      const design = solutionDesigns.find((d) => d.slug === slug)!;
      expect(meta.path).toBe(`/case-studies/${slug}`);
      expect(design.meta).toBe(meta);
      expect(meta.jsonLd).toMatchObject({ name: design.headline, areaServed: { name: `${design.town}, CA` } });
      expect(meta.keywords?.[0]).toBe(`${design.town} ${design.industry.toLowerCase()} automation`);
    }
  });

  it('has one case-study page per study', () => {
    expect(caseStudyRoutes.map((r) => r.key)).toEqual(caseStudies.map((s) => s.key));
    for (const { key, meta } of caseStudyRoutes) expect(caseStudies.find((s) => s.key === key)!.meta).toBe(meta);
  });

  it("describes each case study as an Article with the dates and author Google's Article guidelines ask for", () => {
    for (const { meta } of caseStudyRoutes) {
      expect(meta.jsonLd, meta.path).toMatchObject({
        '@type': 'Article',
        datePublished: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/),
        dateModified: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/),
        author: { '@type': 'Organization', name: 'Tri-Valley AI Automation', url: '/' },
      });
    }
  });
});
