// First: it holds what a visitor does on the server's HTML until React has hydrated it (see the module).
import './features/remotes/lib/early-interaction';
import { startTransition } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { BrowserRouter } from 'react-router-dom';
import { App } from './app/App';
import { ShellRoot } from './app/shell-root';
import { CLIENT_RENDER_DIGEST, REMOTE_FAILED_DIGEST } from './features/remotes/lib/remote-environment';
import { devOverrideInPage } from './features/remotes/lib/dev-override';
import { loadRemoteApp } from './features/remotes/lib/load-remote';
import { preloadCurrentRemote } from './features/remotes/lib/preload-remote';
import './index.css';

preloadCurrentRemote();

const container = document.getElementById('root')!;
const tree = (
  <ShellRoot environment={{ load: loadRemoteApp, devOverride: devOverrideInPage() }}>
    <BrowserRouter>
      <App />
    </BrowserRouter>
  </ShellRoot>
);

// The server rendered this page (it marks #root): hydrate its HTML. Otherwise (the admin area, or the server could
// not render) render from scratch.
if (container.hasAttribute('data-ssr')) {
  // In a transition, hydration yields to the browser every few milliseconds instead of running as one long task
  // (what a phone feels as a frozen page, and Lighthouse as blocking time); the page is already painted meanwhile.
  startTransition(() => {
    hydrateRoot(container, tree, {
      onRecoverableError(error, info) {
        // An area the server handed over on purpose (its remote's server entry missing, failing or slow: the server
        // logged why) renders here as it would without server rendering: expected, not an error of this page.
        const digest = (error as { digest?: unknown } | null)?.digest;
        if (digest === CLIENT_RENDER_DIGEST || digest === REMOTE_FAILED_DIGEST) return;
        console.error('Recovered from an error while hydrating the page', error, info.componentStack);
      },
    });
  });
} else {
  createRoot(container).render(tree);
}
