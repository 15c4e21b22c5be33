/*
 * The server-render contract, in one place: what the API hands a remote's server entry and the shell's server entry,
 * and what they answer. The remotes build their server entries against it (`createRemoteRender` in @site/ui), the
 * shell's server entry implements `ShellServerEntry`, and the API (api/src/site) calls both through these types.
 * Its version is SERVER_CONTRACT_VERSION (./release-compat): a change a server of the old contract could not use
 * raises it, and a release built for another contract is refused. React-free: `E` is the element type (ReactNode
 * where React is known).
 */
import type { RemotesMap } from './manifest';

/**
 * The id of the `<script type="application/json">` the server writes right after a rendered #root, holding SiteData:
 * the browser reads it to hydrate, and the page's head names it as the end of the markup its first paint waits for.
 */
export const SITE_DATA_ELEMENT_ID = '__SITE_DATA__';

/** What the server embeds in the page for hydration (SITE_DATA_ELEMENT_ID), and what a remote's page reads back. */
export interface SiteData {
  /** The URL path the server rendered (`location.pathname`). */
  path: string;
  /** The page's HTTP status: 404 means the shell's not-found page was rendered for `path`. */
  status: number;
  /** The remote whose area the server rendered, when one did. */
  remote?: string;
  /** The route's data source (`post`, `post-list`, `analysis-report`) and its data. */
  source?: string;
  data?: unknown;
  /**
   * The site's public origin (PUBLIC_ORIGIN), for a page that writes its own full address in its text (a report's
   * printed permalink), so the server's HTML names it without JavaScript. Absent from servers before it.
   */
  origin?: string;
}

/** What the shell's tree holds for the matched remote's area: its page element, or a hand-over to the browser. */
export type ServerArea<E = unknown> = { kind: 'remote'; element: E } | { kind: 'client' };

/** What the server hands a remote's `render`: the page's data (loaded by the API's own services) and an abort signal. */
export interface RemoteRenderContext {
  data?: unknown;
  /** The route's data source, when it has one (`post`, `post-list`, `analysis-report`). */
  source?: string;
  /** 404 when the route's data does not exist (an unknown slug): the page renders its not-found state. */
  status?: number;
  /** The site's public origin (SiteData's `origin`), for the remote's own SiteData. */
  origin?: string;
  signal?: AbortSignal;
}

/** What a remote's `render` answers: its page tree for the URL, to be rendered under the server's router. */
export interface RemoteRenderResult<E = unknown> {
  element: E;
  status?: number;
  /** The data to embed for hydration (what the page will read back in the browser), when it differs from what it was given. */
  data?: unknown;
}

/** One route of a remote's server module: the parts of its route definition (`RemoteRouteDef`) the server uses. */
export interface ServerRouteDef {
  path: string;
  /** Server data of a page: `source` names the loader, `param` the route param it is given (if any). */
  data?: { source: string; param?: string };
  /** The dynamic page's head from its params and the loaded data (validated by the server). */
  head?: (params: Record<string, string>, data: unknown) => unknown;
}

/**
 * What a remote's server module exports: `server.entry` of its manifest (`dist/server/entry.js`), or a module with
 * the route table alone (`server.routes`, a remote rendered in the browser such as admin).
 */
export interface RemoteServerModule {
  routes: ServerRouteDef[];
  /** The remote's page for `url`, rendered by the shell's server entry under its router. */
  render?: (url: string, context: RemoteRenderContext) => Promise<RemoteRenderResult>;
}

export interface ShellRenderInput<E = unknown> {
  /** The request's path and query. */
  url: string;
  /** `/remotes.json` as served with this page (the browser reads the same, inlined). */
  remotes: Partial<RemotesMap>;
  /** What the matched remote's area holds. */
  area: ServerArea<E>;
  /** What the page embeds for hydration; `status: 404` renders the not-found page. */
  site: SiteData;
  /** Past this, whatever has not rendered yet is left to the browser. */
  timeoutMs: number;
}

export interface ShellRenderResult {
  /** The markup inside #root. */
  html: string;
  /** The remote's area is rendered in the browser (handed over, failed or too slow). */
  areaInBrowser: boolean;
  /** Errors thrown while rendering the remote's area (the page still renders; the browser renders the area). */
  errors: unknown[];
}

/** The shell's server entry (`shell/dist/server/entry.js`, from `shell/src/app/server-entry.tsx`). */
export interface ShellServerEntry {
  renderPage(input: ShellRenderInput): Promise<ShellRenderResult>;
  /**
   * The packages the remotes' server entries import without bundling (react, react-dom, react-router-dom,
   * react/jsx-runtime), by specifier: the very module instances the shell renders with. Absent in older builds.
   */
  shared?: Record<string, unknown>;
}
