import { RemoteRoot, RemoteRoutes, useSiteData } from '@site/ui';
import { BlogQueryProvider } from '../lib/query-client';
import { routes } from './routes';
import { seedServerData } from './server-data';
import '../index.css';

/** The exposed ./App of mfe-blog. */
export default function App() {
  const site = useSiteData();
  return (
    <RemoteRoot name="blog" version={__MFE_VERSION__}>
      <BlogQueryProvider seed={(client) => seedServerData(client, site)}>
        <RemoteRoutes routes={routes} />
      </BlogQueryProvider>
    </RemoteRoot>
  );
}
