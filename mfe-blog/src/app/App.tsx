import { RemoteRoot, RemoteRoutes } from '@site/ui';
import { BlogQueryProvider } from '../lib/query-client';
import { routes } from './routes';
import '../index.css';

/** The exposed ./App of mfe-blog. */
export default function App() {
  return (
    <RemoteRoot name="blog" version={__MFE_VERSION__}>
      <BlogQueryProvider>
        <RemoteRoutes routes={routes} />
      </BlogQueryProvider>
    </RemoteRoot>
  );
}
