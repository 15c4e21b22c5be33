// First: it holds what a visitor does on the server's HTML until React has hydrated it (see the module).
import './features/remotes/lib/early-interaction';
import { startTransition } from 'react';
import { devOverrideInPage } from './features/remotes/lib/dev-override';
import { preloadCurrentRemote } from './features/remotes/lib/preload-remote';
import './index.css';

// Read before any remote's code has run (see the module).
const devOverride = devOverrideInPage();
preloadCurrentRemote();

/**
 * The page comes to life in steps, each in a task of its own, so none holds the main thread long:
 * React DOM and the shell's own code are requested at once (the page's remote already is) and each is evaluated as
 * it arrives; the browser gets a turn between the steps (input, paint); then hydration starts, which React slices
 * itself: the shell first (the header's controls), then each Suspense boundary (the remote's area, and within it
 * the parts of the page that hydrate when visible) in a render and commit of its own.
 */
const reactDom = import('react-dom/client');
const shell = import('./app/browser-root');
await nextTask();
const { createRoot, hydrateRoot } = await reactDom;
await nextTask();
const { browserTree, onRecoverableError } = await shell;
await nextTask();

const container = document.getElementById('root')!;
const tree = browserTree(devOverride);

// The server rendered this page (it marks #root): hydrate its HTML. Otherwise (the admin area, or the server could
// not render) render from scratch.
if (container.hasAttribute('data-ssr')) {
  // In a transition, hydration yields to the browser every few milliseconds instead of running as one long task
  // (what a phone feels as a frozen page, and Lighthouse as blocking time); the page is already painted meanwhile.
  startTransition(() => {
    hydrateRoot(container, tree, { onRecoverableError });
  });
} else {
  createRoot(container).render(tree);
}

/** Gives the browser a turn (input, rendering, other tasks) before the next step. */
function nextTask(): Promise<void> {
  const scheduler = (globalThis as { scheduler?: { yield?: () => Promise<void> } }).scheduler;
  if (typeof scheduler?.yield === 'function') return scheduler.yield();
  return new Promise((resolve) => setTimeout(resolve, 0));
}
