import { createContext, createElement, useContext, useSyncExternalStore, type ReactNode } from 'react';
import { SITE_DATA_ELEMENT_ID, type SiteData } from '@site/contracts/server-render';
import { siteOrigin } from './site';

export { SITE_DATA_ELEMENT_ID, type SiteData };

/**
 * What a server-rendered page hands to the browser once, in `<script type="application/json" id="__SITE_DATA__">`:
 * the path it rendered, its status and, when the page's route asked for server data, that data (exactly what the
 * remote's `render` was given), so hydration shows the same thing without fetching it again.
 */
// (SiteData and its element's id: @site/contracts/server-render, the server-render contract.)

const SiteDataContext = createContext<SiteData | null | undefined>(undefined);

/** On the server, the remote's `render` wraps its ./App in this: there is no document to read the data from. */
export function SiteDataProvider({ value, children }: { value: SiteData | null; children: ReactNode }) {
  return createElement(SiteDataContext.Provider, { value }, children);
}

function isSiteData(value: unknown): value is SiteData {
  const v = value as Partial<SiteData> | null;
  return typeof v === 'object' && v !== null && typeof v.path === 'string' && typeof v.status === 'number';
}

let embedded: SiteData | null | undefined;

/** The data the server embedded in this document (read once), or null (a client-rendered page, no document). */
export function readEmbeddedSiteData(): SiteData | null {
  if (embedded !== undefined) return embedded;
  if (typeof document === 'undefined') return null;
  embedded = null;
  const text = document.getElementById(SITE_DATA_ELEMENT_ID)?.textContent;
  if (text) {
    try {
      const parsed: unknown = JSON.parse(text);
      if (isSiteData(parsed)) embedded = parsed;
    } catch (error) {
      console.warn('Ignoring unreadable server data', error);
    }
  }
  return embedded;
}

/** The server's data for this page: from the server render's provider, else from the document. */
export function useSiteData(): SiteData | null {
  const provided = useContext(SiteDataContext);
  return provided !== undefined ? provided : readEmbeddedSiteData();
}

const noSubscription = () => () => {};

/**
 * The site's public origin for text that names the page's full address (a printed permalink): what the server rendered
 * with (its SiteData's `origin`, the same in the embedded data the browser hydrates with), then siteOrigin(), the same
 * PUBLIC_ORIGIN read from the page. '' while hydrating a page from a server that did not say it (the path alone then,
 * as that server rendered it).
 */
export function useSiteOrigin(): string {
  const site = useSiteData();
  return useSyncExternalStore(noSubscription, siteOrigin, () => site?.origin ?? '');
}

/** The server's data of `source` when it was rendered for `pathname` (later pages of the visit load their own). */
export function siteDataFor(site: SiteData | null, pathname: string, source: string): unknown {
  return site && site.path === pathname && site.source === source ? site.data : undefined;
}
