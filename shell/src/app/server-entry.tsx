// The shell's server entry (built to dist/server/entry.js, imported by the API): renders the chrome around the
// matched remote's page into HTML, in the same tree main.tsx hydrates.
import { Writable } from 'node:stream';
import * as React from 'react';
import type { ReactNode } from 'react';
import * as ReactDOM from 'react-dom';
import { renderToPipeableStream } from 'react-dom/server';
import * as ReactRouterDOM from 'react-router-dom';
import { StaticRouter } from 'react-router-dom';
import * as JSXRuntime from 'react/jsx-runtime';
import type { ShellRenderInput as ContractInput, ShellRenderResult } from '@site/contracts/server-render';
import { SiteDataProvider } from '@site/ui';
import { CLIENT_RENDER_DIGEST, REMOTE_FAILED_DIGEST } from '../features/remotes/lib/remote-environment';
import { App } from './App';
import { ShellRoot } from './shell-root';

/** What the API hands the shell's server entry (the server-render contract, with React's nodes). */
export type ShellRenderInput = ContractInput<ReactNode>;
export type { ShellRenderResult };

/**
 * The shared singletons this server entry renders with, as the remotes' server entries must see them: the server
 * hands these to each remote's module when it loads it (release-format's importer), as Module Federation hands the
 * shell's copies to the remotes in the browser. One React, one router context, whatever release is loaded.
 */
export const shared: Record<string, unknown> = {
  react: React,
  'react-dom': ReactDOM,
  'react-router-dom': ReactRouterDOM,
  'react/jsx-runtime': JSXRuntime,
};

/** Renders the whole page body (header, main with the remote's area, footer, toaster) once everything is ready. */
export function renderPage(input: ShellRenderInput): Promise<ShellRenderResult> {
  const tree: ReactNode = (
    <ShellRoot environment={{ server: { remotes: input.remotes, area: input.area } }}>
      <SiteDataProvider value={input.site}>
        <StaticRouter location={input.url}>
          <App />
        </StaticRouter>
      </SiteDataProvider>
    </ShellRoot>
  );

  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    const errors: unknown[] = [];
    let areaInBrowser = input.area.kind === 'client';
    const sink = new Writable({
      write(chunk: Buffer | string, _encoding, done) {
        chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
        done();
      },
    });
    sink.on('finish', () => {
      clearTimeout(timer);
      resolve({ html: Buffer.concat(chunks).toString('utf8'), areaInBrowser, errors });
    });
    const stream = renderToPipeableStream(tree, {
      // Every boundary in place, however large: React would otherwise send big ones after the shell with inline
      // scripts to move them in (the CSP allows no inline script but the theme's, and without JavaScript they stay hidden).
      progressiveChunkSize: Number.POSITIVE_INFINITY,
      // Status and head are decided before rendering; the page goes out whole, once every boundary is ready.
      onAllReady: () => stream.pipe(sink),
      onShellError: (error) => {
        clearTimeout(timer);
        reject(error instanceof Error ? error : new Error(String(error)));
      },
      onError: (error) => {
        areaInBrowser = true;
        if ((error as { digest?: unknown } | null)?.digest === CLIENT_RENDER_DIGEST) return CLIENT_RENDER_DIGEST;
        errors.push(error);
        return REMOTE_FAILED_DIGEST;
      },
    });
    const timer = setTimeout(() => stream.abort(new Error(`server render took longer than ${input.timeoutMs} ms`)), input.timeoutMs);
  });
}
