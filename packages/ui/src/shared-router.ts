/**
 * What the browser's shared `react-router-dom` singleton holds: the federation builds it from this file
 * (`packagePath` in packages/vite-config/index.ts), so the shared chunk keeps only these names (about 16 kB gz)
 * instead of the whole library with its data routers and server APIs (about 65 kB gz). The shell and every remote
 * build the same file, so they agree on one router. The server renders with the full package (external in the
 * server builds), and tests import the full package too.
 *
 * Browser code needs a name of react-router-dom that is not listed here? Add it: the build fails on any import from
 * 'react-router-dom' that this list does not export (`site:shared-router-check`), so nothing is silently undefined.
 */
export {
  BrowserRouter,
  Link,
  Navigate,
  NavLink,
  Route,
  Routes,
  useLocation,
  useNavigate,
  useNavigationType,
  useParams,
  useSearchParams,
} from 'react-router-dom';
