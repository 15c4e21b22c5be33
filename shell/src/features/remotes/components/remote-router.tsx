import { useEffect } from 'react';
import { useLocation } from 'react-router-dom';
import { Button, NotFound } from '@site/ui';
import { findRemote } from '../lib/find-remote';
import { loadRemoteApp } from '../lib/load-remote';
import { useRemotes } from '../hooks/use-remotes';
import { RemoteArea } from './remote-area';

/** Renders the remote that declares the current path, or the not-found page. */
export function RemoteRouter() {
  const { pathname } = useLocation();
  const { remotes, error, load } = useRemotes();
  useEffect(() => {
    if (!remotes) void load();
  }, [remotes, load]);

  if (error)
    return (
      <div role="alert" className="mx-auto max-w-xl px-4 py-24 text-center">
        <h1 className="text-2xl font-bold">This section is temporarily unavailable</h1>
        <p className="mt-3 text-muted-fg">{error}</p>
        <Button className="mt-6" onClick={() => void load()}>
          Retry
        </Button>
      </div>
    );
  if (!remotes)
    return (
      <div role="status" aria-live="polite" className="min-h-screen">
        <span className="sr-only">Loading…</span>
      </div>
    );

  const name = findRemote(remotes, pathname);
  if (!name) return <NotFound />;
  return <RemoteArea key={name} name={name} entry={remotes[name]!.entry} load={loadRemoteApp} />;
}
