import { getRemotes } from '../api/get-remotes';
import { findRemote } from './find-remote';
import { loadRemoteApp } from './load-remote';

/**
 * Starts loading the remote that owns the current URL while React boots; RemoteArea later picks up the
 * same (cached) load. Failures are left for RemoteArea to show.
 */
export function preloadCurrentRemote(): void {
  getRemotes()
    .then((remotes) => {
      const name = findRemote(remotes, window.location.pathname);
      if (name) loadRemoteApp(name, remotes[name]!.entry).catch(() => undefined);
    })
    .catch(() => undefined);
}
