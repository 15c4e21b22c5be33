import { useContext, useEffect } from 'react';
import { useLocation } from 'react-router-dom';
import type { RemotesMap } from '@site/contracts/manifest';
import { Button, NotFound, useSiteData } from '@site/ui';
import { needsFullLoad } from '../lib/dev-override';
import { findRemote } from '../lib/find-remote';
import { RemoteEnvironmentContext } from '../lib/remote-environment';
import { useRemotes } from '../hooks/use-remotes';
import { useMarkLive } from '../lib/mark-live';
import { RemoteArea } from './remote-area';

/** The not-found page, which the shell renders itself (no remote's page marks the document live). */
function ShellNotFound() {
  useMarkLive();
  return <NotFound />;
}

/**
 * Renders the remote that declares the current path, or the not-found page. An unknown slug inside a remote's
 * routes is the remote's own not-found state (the server rendered it so, with status 404).
 */
export function RemoteRouter() {
  const { pathname, search, hash } = useLocation();
  const environment = useContext(RemoteEnvironmentContext);
  const site = useSiteData();
  const store = useRemotes();
  const remotes = (environment.server?.remotes as RemotesMap | undefined) ?? store.remotes;
  const { error, load } = store;
  useEffect(() => {
    if (!remotes) void load();
  }, [remotes, load]);
  const name = remotes ? findRemote(remotes, pathname) : null;
  // With a development override on, the admin's pages come from the server (which serves them without it), so the
  // override's code is not in the page where the admin logs in; its area is never rendered here.
  const fullLoad = needsFullLoad(environment.devOverride, name, pathname);
  const href = `${pathname}${search}${hash}`;
  useEffect(() => {
    if (fullLoad) window.location.assign(href);
  }, [fullLoad, href]);

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
  if (!remotes || fullLoad)
    return (
      <div role="status" aria-live="polite" className="min-h-screen">
        <span className="sr-only">Loading…</span>
      </div>
    );

  // A 404 the server rendered with the shell's not-found page (no remote's page: e.g. one without server rendering).
  if (site?.status === 404 && !site.remote && site.path === pathname) return <ShellNotFound />;
  if (!name) return <ShellNotFound />;
  return <RemoteArea key={name} name={name} entry={remotes[name]!.entry} version={remotes[name]!.version} load={environment.load} server={environment.server?.area} />;
}
