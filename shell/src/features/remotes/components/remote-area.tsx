import { Suspense, use, useMemo, useState, type ComponentType } from 'react';
import { useLocation } from 'react-router-dom';
import { Button, ErrorBoundary, ErrorFallback, reportRemoteError } from '@site/ui';
import { useMarkLive } from '../lib/mark-live';
import { CLIENT_RENDER_DIGEST, type ServerArea } from '../lib/remote-environment';
import { RemoteLoadError, type LoadRemoteApp } from '../lib/remote-loader';

/**
 * One remote's area: loads its ./App at run time with `load`; a failure stays inside this area. A remote
 * that cannot be loaded shows "unavailable" with Retry (a fresh load); a remote that crashes while
 * rendering shows the render-crash screen.
 *
 * On the server (`server`), the same boundaries hold the remote's page element that its server entry rendered,
 * or a hand-over to the browser. In the browser the remote's ./App suspends while it loads, and React keeps the
 * server's HTML of this Suspense boundary on screen until it has loaded, then hydrates it: one tree, no mismatch.
 *
 * What the boundary catches (a crash, the remote's entry or one of its code files not loading) is reported with the
 * remote's name and `version` (the release the remotes map names), counted on the server against that release.
 */
export function RemoteArea({ name, entry, version, load, server }: { name: string; entry: string; version?: string; load?: LoadRemoteApp; server?: ServerArea }) {
  const [attempt, setAttempt] = useState(0);
  const { pathname } = useLocation();
  // One load per attempt (the loader shares it with the preload); Retry makes a new attempt.
  const app = useMemo(() => (server || !load ? null : load(name, entry, attempt)), [server, load, name, entry, attempt]);
  return (
    <ErrorBoundary
      resetKeys={[name, attempt, pathname]}
      onError={(error) => {
        if (version) reportRemoteError(name, version, error);
      }}
      fallback={({ error, reset }) =>
        error instanceof RemoteLoadError ? (
          <RemoteUnavailable onRetry={() => setAttempt((a) => a + 1)} />
        ) : (
          <ErrorFallback reset={reset} />
        )
      }
    >
      <Suspense fallback={<RemoteLoading />}>
        {server ? server.kind === 'remote' ? server.element : <RenderedInBrowser /> : app && <RemoteApp app={app} />}
      </Suspense>
    </ErrorBoundary>
  );
}

/** The remote's ./App once loaded; suspends while loading and throws the load's failure to the boundary. */
function RemoteApp({ app }: { app: Promise<{ default: ComponentType }> }) {
  const { default: App } = use(app);
  return <App />;
}

/** Server only: the area is left to the browser (React sends the loading fallback and renders it there). */
function RenderedInBrowser(): never {
  throw Object.assign(new Error('This area is rendered in the browser'), { digest: CLIENT_RENDER_DIGEST });
}

function RemoteLoading() {
  return (
    // A full screen tall: the footer stays below the fold until the remote replaces this (no layout shift).
    <div role="status" aria-live="polite" className="mx-auto flex min-h-screen max-w-6xl flex-col gap-4 px-4 py-16">
      <span className="sr-only">Loading…</span>
      <div className="h-10 w-2/3 animate-pulse rounded-lg bg-surface-muted" />
      <div className="h-4 w-full animate-pulse rounded bg-surface-muted" />
      <div className="h-4 w-5/6 animate-pulse rounded bg-surface-muted" />
      <div className="mt-6 grid gap-4 sm:grid-cols-3">
        <div className="h-40 animate-pulse rounded-2xl bg-surface-muted" />
        <div className="h-40 animate-pulse rounded-2xl bg-surface-muted" />
        <div className="h-40 animate-pulse rounded-2xl bg-surface-muted" />
      </div>
    </div>
  );
}

function RemoteUnavailable({ onRetry }: { onRetry: () => void }) {
  useMarkLive();
  return (
    <div className="mx-auto flex min-h-[50vh] max-w-xl flex-col items-center justify-center px-4 py-16 text-center" role="alert">
      <h1 className="text-2xl font-bold text-fg">This section is temporarily unavailable</h1>
      <p className="mt-3 text-muted-fg">
        We could not load this part of the site. The rest of the site still works; please try again in a moment.
      </p>
      <Button size="lg" className="mt-6" onClick={onRetry}>
        Retry
      </Button>
    </div>
  );
}
