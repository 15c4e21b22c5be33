import { createElement, type ComponentType, type ReactElement } from 'react';
import { SiteDataProvider, type SiteData } from './site-data';

/** What the server hands a remote's `render`: the page's data (loaded by the API's own services) and an abort signal. */
export interface RemoteRenderContext {
  data?: unknown;
  /** The route's data source, when it has one (`post`, `post-list`, `analysis-report`). */
  source?: string;
  /** 404 when the route's data does not exist (an unknown slug): the page renders its not-found state. */
  status?: number;
  signal?: AbortSignal;
}

/** What a remote's `render` answers: its page tree for the URL, to be rendered under the server's router. */
export interface RemoteRenderResult {
  element: ReactElement;
  status: number;
  /** The data to embed for hydration (what the page will read back in the browser). */
  data?: unknown;
}

/**
 * The `render(url, ctx)` of a remote's server entry: its ./App (the same component the browser loads through
 * federation) with the server's data in context, so the first render in the browser reads the same data from the
 * document and produces the same markup. React and the router come from the server (external imports).
 */
export function createRemoteRender(name: string, App: ComponentType) {
  return async function render(url: string, ctx: RemoteRenderContext = {}): Promise<RemoteRenderResult> {
    if (ctx.signal?.aborted) throw ctx.signal.reason ?? new Error('aborted');
    const path = new URL(url, 'http://server.invalid').pathname;
    const status = ctx.status ?? 200;
    const site: SiteData = { path, status, remote: name, ...(ctx.source && ctx.data !== undefined ? { source: ctx.source, data: ctx.data } : {}) };
    return { element: createElement(SiteDataProvider, { value: site, children: createElement(App) }), status, data: ctx.data };
  };
}
