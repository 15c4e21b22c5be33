import type { ErrorInfo } from 'react';
import { BrowserRouter } from 'react-router-dom';
import { CLIENT_RENDER_DIGEST, REMOTE_FAILED_DIGEST } from '../features/remotes/lib/remote-environment';
import { loadRemoteApp } from '../features/remotes/lib/load-remote';
import { App } from './App';
import { ShellRoot } from './shell-root';

/**
 * The shell's tree in the browser (main.tsx hydrates or renders it): the same shape as the server's
 * (server-entry.tsx), with the federation loader for the remotes. A module of its own, so that main.tsx evaluates
 * it in a task of its own.
 */
export function browserTree(devOverride: { loadedAt: string } | undefined) {
  return (
    <ShellRoot environment={{ load: loadRemoteApp, devOverride }}>
      <BrowserRouter>
        <App />
      </BrowserRouter>
    </ShellRoot>
  );
}

/**
 * An area the server handed over on purpose (its remote's server entry missing, failing or slow: the server logged
 * why) renders here as it would without server rendering: expected, not an error of this page.
 */
export function onRecoverableError(error: unknown, info: ErrorInfo): void {
  const digest = (error as { digest?: unknown } | null)?.digest;
  if (digest === CLIENT_RENDER_DIGEST || digest === REMOTE_FAILED_DIGEST) return;
  console.error('Recovered from an error while hydrating the page', error, info.componentStack);
}
