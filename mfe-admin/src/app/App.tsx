import { RemoteRoot, RemoteRoutes } from '@site/ui';
import { AdminQueryProvider } from '../lib/query-client';
import { routes } from './routes';
import '../index.css';

/** The exposed ./App of mfe-admin. */
export default function App() {
  return (
    <RemoteRoot name="admin" version={__MFE_VERSION__}>
      <AdminQueryProvider>
        <RemoteRoutes routes={routes} />
      </AdminQueryProvider>
    </RemoteRoot>
  );
}
