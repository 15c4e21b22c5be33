import { Route, Routes } from 'react-router-dom';
import { NotFound, RemoteRoot } from '@site/ui';
import { AnalysisPage } from '../features/analysis/components/analysis-page';
import '../index.css';

/** The exposed ./App of mfe-analysis. */
export default function App() {
  return (
    <RemoteRoot name="analysis" version={__MFE_VERSION__}>
      <Routes>
        <Route path="/free-analysis" element={<AnalysisPage variant="free" />} />
        <Route path="/website-analysis" element={<AnalysisPage variant="website" />} />
        <Route path="*" element={<NotFound />} />
      </Routes>
    </RemoteRoot>
  );
}
