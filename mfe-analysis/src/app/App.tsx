import { RemoteRoot, RemoteRoutes } from '@site/ui';
import { routes } from './routes';
import '../index.css';

/** The exposed ./App of mfe-analysis. */
export default function App() {
  return (
    <RemoteRoot name="analysis" version={__MFE_VERSION__}>
      <RemoteRoutes routes={routes} />
    </RemoteRoot>
  );
}
