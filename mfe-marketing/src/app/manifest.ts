import type { PageMeta } from '@site/contracts/manifest';
import { caseStudies } from '../features/case-studies/data/case-studies';
import { homeMeta } from '../features/home/data/meta';
import { cities, localServicesMeta } from '../features/local-pages/data/cities';
import { roiMeta } from '../features/roi-calculator/data/meta';
import { solutionDesigns } from '../features/solution-designs/data/solution-designs';

/** Every page this remote renders, with its search metadata; the routes are exactly these paths. */
export const pages: PageMeta[] = [
  homeMeta,
  localServicesMeta,
  ...cities.map((c) => c.meta),
  ...solutionDesigns.map((d) => d.meta),
  ...caseStudies.map((c) => c.meta),
  roiMeta,
];
export const routes = pages.map((p) => p.path);
