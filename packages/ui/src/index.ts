// The package's public surface. One entry point on purpose: federation shares @site/ui as a single
// singleton module, so every remote must import it by this one specifier.
import './zod-csp';
export { cn } from './cn';
export { Button, ButtonLink, ExternalLink, buttonClasses, type ButtonVariant, type ButtonSize } from './button';
export { Container, Card, Badge, Section } from './layout';
export { SITE, siteOrigin, hoursText, openingHoursSchema, type BusinessHours } from './site';
export { preparePageToken, recordEvent, reportRemoteError, sendEvents, track, trackingAllowed } from './track';
export { useGoToSection, scrollToId, scrollWhenPresent, renderWholePage, SECTION_SCROLL_DELAY_MS } from './go-to-section';
export { useScrollToTop } from './page-meta';
export { usePageHead, RouteHead, type PageHead } from './page-head';
export {
  useThemeStore,
  startThemeSync,
  readStoredTheme,
  nextTheme,
  applyTheme,
  THEME_STORAGE_KEY,
  type ThemePreference,
} from './use-theme-store';
export { ThemeToggle } from './theme-toggle';
export { NotFound } from './not-found';
export { useNotFoundSignal, NOT_FOUND_EVENT, type NotFoundDetail } from './not-found-signal';
export { ErrorBoundary, ErrorFallback } from './error-boundary';
export { ApiError, requestJson } from './request';
export { StandaloneHost } from './standalone-host';
export { Toasts, notify } from './toasts';
export { RemoteRoot, PageHeader } from './remote-root';
export { RemoteRoutes, type RemoteRouteDef, type RouteData, type RouteDataSource, type PostListData } from './route-table';
export { useValueTypedBeforeHydration } from './typed-before-hydration';
export { HydrateWhenVisible } from './hydrate-when-visible';
export { SiteDataProvider, readEmbeddedSiteData, siteDataFor, useSiteData, useSiteOrigin, SITE_DATA_ELEMENT_ID, type SiteData } from './site-data';
