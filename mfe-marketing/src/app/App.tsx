import { RemoteRoot, RemoteRoutes } from '@site/ui';
import { routes } from './routes';
import '../index.css';

/** The exposed ./App of mfe-marketing. */
export default function App() {
  return (
    <RemoteRoot name="marketing" version={__MFE_VERSION__}>
      <RemoteRoutes routes={routes} />
    </RemoteRoot>
  );
}
