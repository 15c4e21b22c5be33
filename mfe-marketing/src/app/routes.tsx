import { lazy } from 'react';
import type { RemoteRouteDef } from '@site/ui';
import { caseStudyRoutes } from '../features/case-studies/data/case-study-meta';
import { homeMeta } from '../features/home/data/meta';
import { cityRoutes, localServicesMeta } from '../features/local-pages/data/city-meta';
import { roiMeta } from '../features/roi-calculator/data/meta';
import { solutionDesignRoutes } from '../features/solution-designs/data/solution-design-meta';
import { HomePage } from './home-route';

// The home page is most visits' first page: it ships with ./App, without a second round trip. The rest load on demand,
// with their copy: the table itself holds only each page's metadata (the *-meta.ts files), so ./App stays small.
const LocalServicesPage = lazy(() => import('../features/local-pages/components/local-services-page').then((m) => ({ default: m.LocalServicesPage })));
const CityPage = lazy(() => import('../features/local-pages/components/city-route').then((m) => ({ default: m.CityRoute })));
const SolutionDesignPage = lazy(() =>
  import('../features/solution-designs/components/solution-design-route').then((m) => ({ default: m.SolutionDesignRoute })),
);
const CaseStudyPage = lazy(() => import('../features/case-studies/components/case-study-route').then((m) => ({ default: m.CaseStudyRoute })));
const RoiCalculatorPage = lazy(() =>
  import('../features/roi-calculator/components/roi-calculator-page').then((m) => ({ default: m.RoiCalculatorPage })),
);

/** The one route table of mfe-marketing: its router, its manifest and the server's metadata read it. */
export const routes: RemoteRouteDef[] = [
  { path: '/', page: HomePage, meta: homeMeta },
  { path: '/local-services', page: LocalServicesPage, meta: localServicesMeta },
  ...cityRoutes.map(({ slug, meta }) => ({ path: meta.path, page: CityPage, props: { slug }, meta })),
  ...solutionDesignRoutes.map(({ slug, meta }) => ({ path: meta.path, page: SolutionDesignPage, props: { slug }, meta })),
  ...caseStudyRoutes.map(({ key, meta }) => ({ path: meta.path, page: CaseStudyPage, props: { studyKey: key }, meta })),
  { path: '/roi-calculator', page: RoiCalculatorPage, meta: roiMeta },
];
