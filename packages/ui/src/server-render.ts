import { createElement, type ComponentType, type ReactElement } from 'react';
import type { RemoteRenderContext, RemoteRenderResult as ContractResult } from '@site/contracts/server-render';
import { SiteDataProvider, type SiteData } from './site-data';

export type { RemoteRenderContext };
/** What a remote's `render` answers (the contract's, with React's element and the status always set). */
export type RemoteRenderResult = ContractResult<ReactElement> & { status: number };

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
    const site: SiteData = {
      path,
      status,
      remote: name,
      ...(ctx.origin ? { origin: ctx.origin } : {}),
      ...(ctx.source && ctx.data !== undefined ? { source: ctx.source, data: ctx.data } : {}),
    };
    return { element: createElement(SiteDataProvider, { value: site, children: createElement(App) }), status, data: ctx.data };
  };
}
