import type { MfeManifest, RemoteName, RemotesMap } from '@site/contracts/manifest';
import type { RemoteServerModule } from '@site/contracts/server-render';

/*
 * What the services read about the deployed remotes (the health checks). The site's remote registry
 * (api/src/site/releases/remote-registry.ts) provides it and is passed in by app.ts; the services describe here only the
 * shape they rely on, so they never import the site layer (services ↛ routes/middleware/site, eslint.config.js).
 */

/** Whether the server module(s) a remote's manifest names imported: `none` when it names none. */
export type ServerEntryStatus = 'ok' | 'failed' | 'none';

/** What one remote serves right now. */
export interface ServedRemote {
  name: RemoteName;
  /** The served version: the release folder's name, or the manifest's version when served from `dist/`. */
  version: string;
  /** The directory served under `/mfe/<name>/`. */
  dir: string;
  layout: 'release' | 'dist';
  serverEntry: ServerEntryStatus;
  /** Why the server module does not load, when `serverEntry` is `failed`. */
  serverError?: string;
  /** Set when the release `current` names is not served and this earlier one (the last known good) is. */
  rejected?: { version: string; reason: string };
  /** When this process started serving this release (ISO time). */
  since: string;
  /** The release the remote's `current` pointer names; null while its dist is served in place. */
  pointer: string | null;
  /** The server module pages are rendered with (the entry, else the route table); null when it names none or failed. */
  module: RemoteServerModule | null;
  /** Not the served release: the one this request chose instead (a staged one it previews, or a canary's). */
  chosen?: 'preview' | 'canary';
}

/** The deployment as one request reads it: the one snapshot type of the registry, the pages and health. */
export interface RemotesSnapshot {
  /** Manifests of the remotes served right now, in REMOTE_NAMES order (`version` is the served version). */
  manifests: MfeManifest[];
  /** `/remotes.json`: what the shell needs to load each remote. Only deployed remotes appear. */
  map: Partial<RemotesMap>;
  /** Every route pattern any deployed remote declares. */
  routes: string[];
  /** Which release each served remote serves from, and how its server module loaded. */
  served?: Partial<Record<RemoteName, ServedRemote>>;
}

/** An app of the release model: the shell or a remote. */
export type AppName = 'shell' | RemoteName;

/** What this instance's shell serves: its release (null while its dist is served in place), since when. */
export interface ServedShell {
  version: string | null;
  /** The served folder (shell/releases/<version>, else shell/dist). */
  dir: string;
  /** When this process started serving it (ISO time). */
  since: string;
}

/** One instance's report of what it serves of an app (releases shared through PostgreSQL). */
export interface InstanceServing {
  instance: string;
  remote: AppName;
  /** The release it serves (null: nothing of this remote). */
  version: string | null;
  /** When it started serving it. */
  since: string | null;
  /** Why it does not serve the shared pointer's release, when it does not. */
  problem: string | null;
  reportedAt: string;
}

/** Releases shared by every instance (DATABASE_URL on PostgreSQL): the pointers and what each live instance serves. */
export interface SharedReleases {
  /** This instance's name in `instances`. */
  self: string;
  pointers: Partial<Record<AppName, { version: string; since: string }>>;
  /** Reports of the instances that reported lately (an instance that stopped drops out). */
  instances: InstanceServing[];
}

/** The deployed remotes as the services see them. */
export interface DeployedRemotes {
  /** The current deployment. */
  snapshot(): Promise<RemotesSnapshot>;
  /** What the shell serves here. */
  shell?(): Promise<ServedShell>;
  /** The shared releases' pointers and instances; absent when releases are this machine's folders (SQLite). */
  shared?(): Promise<SharedReleases>;
}
