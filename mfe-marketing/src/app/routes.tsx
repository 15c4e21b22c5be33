import { lazy } from 'react';
import type { RemoteRouteDef } from '@site/ui';
import { caseStudies } from '../features/case-studies/data/case-studies';
import { homeMeta } from '../features/home/data/meta';
import { cities, localServicesMeta } from '../features/local-pages/data/cities';
import { roiMeta } from '../features/roi-calculator/data/meta';
import { solutionDesigns } from '../features/solution-designs/data/solution-designs';
import { HomePage } from './home-route';

// The home page is most visits' first page: it ships with ./App, without a second round trip. The rest load on demand.
const LocalServicesPage = lazy(() => import('../features/local-pages/components/local-services-page').then((m) => ({ default: m.LocalServicesPage })));
const CityPage = lazy(() => import('../features/local-pages/components/city-page').then((m) => ({ default: m.CityPage })));
const SolutionDesignPage = lazy(() =>
  import('../features/solution-designs/components/solution-design-page').then((m) => ({ default: m.SolutionDesignPage })),
);
const CaseStudyPage = lazy(() => import('../features/case-studies/components/case-study-page').then((m) => ({ default: m.CaseStudyPage })));
const RoiCalculatorPage = lazy(() =>
  import('../features/roi-calculator/components/roi-calculator-page').then((m) => ({ default: m.RoiCalculatorPage })),
);

/** The one route table of mfe-marketing: its router, its manifest and the server's metadata read it. */
export const routes: RemoteRouteDef[] = [
  { path: '/', page: HomePage, meta: homeMeta },
  { path: '/local-services', page: LocalServicesPage, meta: localServicesMeta },
  ...cities.map((city) => ({ path: city.meta.path, page: CityPage, props: { city }, meta: city.meta })),
  ...solutionDesigns.map((design) => ({ path: design.meta.path, page: SolutionDesignPage, props: { design }, meta: design.meta })),
  ...caseStudies.map((study) => ({ path: study.meta.path, page: CaseStudyPage, props: { study }, meta: study.meta })),
  { path: '/roi-calculator', page: RoiCalculatorPage, meta: roiMeta },
];
