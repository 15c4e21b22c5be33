import { Route, Routes } from 'react-router-dom';
import { NotFound, RemoteRoot } from '@site/ui';
import { CaseStudyPage } from '../features/case-studies/components/case-study-page';
import { caseStudies } from '../features/case-studies/data/case-studies';
import { HomePage } from './home-route';
import { CityPage } from '../features/local-pages/components/city-page';
import { LocalServicesPage } from '../features/local-pages/components/local-services-page';
import { cities } from '../features/local-pages/data/cities';
import { RoiCalculatorPage } from '../features/roi-calculator/components/roi-calculator-page';
import { SolutionDesignPage } from '../features/solution-designs/components/solution-design-page';
import { solutionDesigns } from '../features/solution-designs/data/solution-designs';
import '../index.css';

/** The exposed ./App of mfe-marketing. */
export default function App() {
  return (
    <RemoteRoot name="marketing" version={__MFE_VERSION__}>
      <Routes>
        <Route path="/" element={<HomePage />} />
        <Route path="/local-services" element={<LocalServicesPage />} />
        {cities.map((c) => (
          <Route key={c.slug} path={c.meta.path} element={<CityPage city={c} />} />
        ))}
        {solutionDesigns.map((d) => (
          <Route key={d.slug} path={d.meta.path} element={<SolutionDesignPage design={d} />} />
        ))}
        {caseStudies.map((s) => (
          <Route key={s.key} path={s.meta.path} element={<CaseStudyPage study={s} />} />
        ))}
        <Route path="/roi-calculator" element={<RoiCalculatorPage />} />
        <Route path="*" element={<NotFound />} />
      </Routes>
    </RemoteRoot>
  );
}
