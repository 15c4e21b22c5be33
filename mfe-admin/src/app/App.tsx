import { RemoteRoot, RemoteRoutes } from '@site/ui';
import { routes } from './routes';
import '../index.css';

/** The exposed ./App of mfe-admin. */
export default function App() {
  return (
    <RemoteRoot name="admin" version={__MFE_VERSION__}>
      <RemoteRoutes routes={routes} />
    </RemoteRoot>
  );
}
