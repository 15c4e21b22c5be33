import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { caseStudies } from '../../features/case-studies/data/case-studies';
import { CASE_STUDY_IMAGE_SIZE, caseStudyRoutes } from '../../features/case-studies/data/case-study-meta';
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

  it("gives each case study's Article an image (Google lists it for Article rich results), the one its link previews show", () => {
    for (const { key, meta } of caseStudyRoutes) {
      const image = `/mfe/marketing/case-studies/${key}.jpg`;
      expect((meta.jsonLd as { image?: unknown }).image, meta.path).toEqual([image]);
      expect(meta, meta.path).toMatchObject({ image, imageWidth: CASE_STUDY_IMAGE_SIZE.width, imageHeight: CASE_STUDY_IMAGE_SIZE.height });
      // The remote serves its public/ folder under /mfe/marketing/: the file is there, a JPEG of the size the head says.
      const file = readFileSync(path.join(import.meta.dirname, '../../../public/case-studies', `${key}.jpg`));
      expect(jpegSize(file), meta.path).toEqual(CASE_STUDY_IMAGE_SIZE);
    }
  });
});

/** Width and height from a JPEG's frame header (SOF0..SOF15 but DHT, JPG and DAC), or undefined for anything else. */
function jpegSize(bytes: Uint8Array): { width: number; height: number } | undefined {
  if (bytes[0] !== 0xff || bytes[1] !== 0xd8) return undefined;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  for (let at = 2; at + 9 < bytes.length; ) {
    if (bytes[at] !== 0xff) return undefined;
    const marker = bytes[at + 1]!;
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
      return { width: view.getUint16(at + 7), height: view.getUint16(at + 5) };
    }
    at += 2 + view.getUint16(at + 2);
  }
  return undefined;
}
