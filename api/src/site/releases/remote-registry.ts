import { stat } from 'node:fs/promises';
import path from 'node:path';
import { REMOTE_NAMES, type MfeManifest, type RemoteName, type RemotesMap } from '@site/contracts/manifest';
import type { Logger } from '../../lib/logger';
import { statShared } from '../../lib/stat-shared';
import type { RemotesSnapshot, ServedRemote } from '../../health/deployed-remotes';
import { createChosenReleases, type Chosen } from './chosen-releases';
import { createEarlierReleases } from './earlier-releases';
import { coalescedReads, createInputReader, type Inputs } from './registry-freshness';
import {
  REMOTE_ENTRY_FILE,
  currentReleasePolicy,
  distDir as distPathOf,
  incompatibility,
  readHistory,
  readManifest,
  readShellBuiltWith,
  remoteDir as remoteDirOf,
  serverFiles,
  servingOrder,
  type SharedModules,
} from './release-format';
import { createReleaseInspector, servedRemote, type Probe, type ReleaseImporter } from './release-inspection';
import type { TrustedKey } from './release-signature';
import type { ChoiceReason, ReleaseChoice } from './release-choice';

export type { ReleaseImporter } from './release-inspection';

// The release format (layout, names, checks, the importer) is release-format.ts, shared with npm run deploy.
export { HISTORY_FILE, POINTER_FILE, PREVIOUS_RELEASES_SERVED, RELEASE_NAME, RELEASES_DIR, REMOTE_ENTRY_FILE } from './release-format';

export type { ServerEntryStatus } from '../../health/deployed-remotes';

// One snapshot type: what the services (health) read is what a page request reads.
export type { RemotesSnapshot, ServedRemote } from '../../health/deployed-remotes';

export interface RemoteRegistry {
  /** The current deployment. Cheap: a few `stat` calls per remote; files are re-read only when they change. */
  snapshot(): Promise<RemotesSnapshot>;
  /**
   * Where `/mfe/<name>/…` files come from, checked now: the served release (null when the remote's pointer names
   * nothing servable), then earlier releases, newest first, for content-hashed assets only.
   */
  staticDirs(name: RemoteName): Promise<{ current: string | null; previous: string[] }>;
  /**
   * The deployment as one request gets it (release-choice.ts): the snapshot with each override of the choice applied
   * (its release in `served`, the manifests and the remotes map, whose entry names it: `remoteEntry.js?release=`),
   * when that release may run: staged, complete, signed by a trusted key, fitting the shell, its server module loading.
   * An override that may not is left out and said in `refused`. The same choice gets the same snapshot object while
   * nothing changes (the render cache keys on it).
   */
  snapshotFor(choice: ReleaseChoice): Promise<{ snapshot: RemotesSnapshot; refused: Array<{ app: RemoteName; version: string; why: ChoiceReason; reason: string }> }>;
  /** The folder of `name`'s staged release `version` when it may run (as snapshotFor judges it), else null. */
  stagedDir(name: RemoteName, version: string): Promise<string | null>;
}

interface RemoteState {
  inputs: string;
  /** Version `current` named when this was resolved; null in the `dist/` layout. */
  pointer: string | null;
  served: ServedRemote | null;
  manifest: MfeManifest | null;
  /** Bumped on every resolution, so the snapshot can tell that something changed. */
  generation: number;
}

type Resolution = { served: ServedRemote | null; manifest: MfeManifest | null };

/**
 * Serves each remote from `mfe-<name>/releases/<current>/` when a `current` pointer exists, else from
 * `mfe-<name>/dist/`. A release is served only when it is complete (release-format's checkRelease), can run in the
 * serving shell (its shared singletons and server contract), and its server module(s) import; otherwise the last
 * known good release keeps serving (the one served before in this process, else the one below it in history.json's
 * stack), and the snapshot says which release was rejected and why. A remote with nothing servable is absent.
 * Deploys and rollbacks count on the next request: no restart.
 *
 * This is the one owner of "what is served": the snapshot carries, per remote, the release's directory, manifest and
 * imported server module, and everything else (static files, head, body, stylesheets, health) reads that one value.
 * Resolutions of one remote run one after another, so a newer one always lands last.
 */
export function createRemoteRegistry(options: {
  siteRoot: string;
  remoteUrls: Partial<Record<RemoteName, string>>;
  logger?: Logger;
  /** The shell's shared singletons (its server entry's `shared`), handed to each remote's server module. */
  shared?: () => Promise<SharedModules | undefined>;
  /** How a release's server modules are loaded (release-format's importRelease). */
  importer?: ReleaseImporter;
  /**
   * RELEASE_TRUSTED_KEYS: when any, a release (or a dist) is served only when a key trusted for its remote signed
   * exactly its files (release-signature.ts), whatever the pointer, the history or the database say.
   */
  trustedKeys?: readonly TrustedKey[];
  /**
   * Brings a staged release to this instance's SITE_ROOT (staged/<version>/) when it is staged in the shared store
   * (PostgreSQL: release-sync.ts); absent on one machine, where staged releases are written there.
   */
  stagedCopy?: (name: RemoteName, version: string) => Promise<void>;
}): RemoteRegistry {
  const { logger } = options;
  const trustedKeys = options.trustedKeys ?? [];
  const inspector = createReleaseInspector({ siteRoot: options.siteRoot, trustedKeys, importer: options.importer, shared: options.shared });
  const { unsigned, inspectRelease, probeServer } = inspector;
  const { chosenRelease, applyChoice, applyDevOverride } = createChosenReleases({ siteRoot: options.siteRoot, logger, stagedCopy: options.stagedCopy, inspector });
  const { previousDirs } = createEarlierReleases({ siteRoot: options.siteRoot, unsigned });
  const states = new Map<RemoteName, RemoteState>();
  const resolving = new Map<RemoteName, { inputs: string; promise: Promise<RemoteState> }>();
  /** The last resolution started per remote: the next one starts after it (serialised, newest lands last). */
  const tails = new Map<RemoteName, Promise<unknown>>();
  /** Server files named by the last `dist/` manifest: an in-place copy of them changes what is served. */
  const distServerFiles = new Map<RemoteName, string[]>();
  /** The last release served with its server module loaded, per remote: the last known good. */
  const lastGood = new Map<RemoteName, string>();
  /** The pointer the resolution under way reads (resolutions of one remote take turns). */
  const pointerOf = new Map<RemoteName, string | null>();
  let generation = 0;
  let lastKey = '';
  let lastSnapshot: RemotesSnapshot = { manifests: [], map: {}, routes: [], served: {} };
  const readInputs = createInputReader(options.siteRoot, distServerFiles);

  const remoteDir = (name: RemoteName) => remoteDirOf(options.siteRoot, name);
  const distPath = (name: RemoteName) => distPathOf(options.siteRoot, name);

  const servedOf = (name: RemoteName, version: string, dir: string, layout: ServedRemote['layout'], probe: Probe, since: string): ServedRemote =>
    servedRemote(name, version, dir, layout, probe, since, layout === 'release' ? pointerOf.get(name) ?? null : null);

  async function resolveDist(name: RemoteName, since: string): Promise<Resolution> {
    const dir = distPath(name);
    const read = await readManifest(dir, name);
    if ('reason' in read) {
      if (read.reason !== 'mfe-manifest.json is missing') logger?.warn({ remote: name, dir }, `ignoring mfe-${name}/dist: ${read.reason}`);
      distServerFiles.delete(name);
      return { served: null, manifest: null };
    }
    const manifest = read.manifest;
    // With trusted keys, a build in place is code nobody signed: it is not served (deploy it as a signed release).
    const refused = await unsigned(dir, name);
    if (refused) {
      logger?.error({ remote: name, dir, reason: refused }, `mfe-${name}/dist is not served: ${refused}`);
      distServerFiles.delete(name);
      return { served: null, manifest: null };
    }
    distServerFiles.set(
      name,
      serverFiles(manifest).map(([, relative]) => path.resolve(dir, relative)),
    );
    // Watched from now on (lib/stat-shared.ts): an in-place rebuild of them is seen like a deploy.
    await Promise.all(distServerFiles.get(name)!.map(statShared));
    // An in-place copy has nothing earlier to fall back to: it is served, and health says whether its server module
    // loads and whether it fits the shell.
    let probe = await probeServer(dir, manifest);
    const incompatible = incompatibility(manifest, await readShellBuiltWith(options.siteRoot));
    if (incompatible) logger?.error({ remote: name, dir, reason: incompatible }, `mfe-${name}/dist ${incompatible}`);
    if (probe.status === 'failed') {
      // A rebuild in place (dev) that is mid-write or broken: pages keep the module that loaded last, if any.
      const before = states.get(name)?.served;
      const kept = before?.layout === 'dist' ? before.module : null;
      const missing = !(await Promise.all(serverFiles(manifest).map(([, file]) => stat(path.resolve(dir, file)).then(() => true, () => false)))).every(Boolean);
      const what = missing ? 'the dist names a server module that is missing' : 'the server module of the dist does not load';
      logger?.error({ remote: name, dir, reason: probe.reason }, kept ? `${what}; keeping the last one that loaded` : what);
      if (kept) probe = { ...probe, module: kept };
    }
    return { served: servedOf(name, manifest.version, dir, 'dist', probe, since), manifest };
  }

  async function resolveRelease(name: RemoteName, pointer: string, since: string): Promise<Resolution> {
    const { stack } = await readHistory(remoteDir(name));
    const candidates = servingOrder(pointer, lastGood.get(name), stack);

    let rejected: ServedRemote['rejected'];
    let lastResort: { served: ServedRemote; manifest: MfeManifest } | undefined;
    for (const version of candidates) {
      const inspection = await inspectRelease(name, version);
      if (!inspection.ok) {
        rejected ??= { version, reason: inspection.reason };
        continue;
      }
      const probe = await probeServer(inspection.dir, inspection.manifest);
      const served = servedOf(name, version, inspection.dir, 'release', probe, since);
      if (probe.status === 'failed') {
        rejected ??= { version, reason: probe.reason ?? 'its server module does not load' };
        lastResort ??= { served, manifest: inspection.manifest };
        continue;
      }
      if (version !== pointer) served.rejected = rejected;
      return { served, manifest: inspection.manifest };
    }
    // Nothing earlier loads either: a complete release whose server module fails still serves its browser code.
    if (lastResort) {
      const { served, manifest } = lastResort;
      return { served: { ...served, ...(served.version !== pointer ? { rejected } : {}) }, manifest };
    }
    return { served: null, manifest: null };
  }

  async function resolve(name: RemoteName, inputs: Inputs): Promise<RemoteState> {
    pointerOf.set(name, inputs.pointer);
    const before = states.get(name)?.served;
    const now = new Date().toISOString();
    const resolution = inputs.pointer === null ? await resolveDist(name, now) : await resolveRelease(name, inputs.pointer, now);
    let { served } = resolution;
    // The same release as before keeps the time it started serving.
    if (served && before && before.version === served.version && before.dir === served.dir) served = { ...served, since: before.since };
    if (served && served.layout === 'release' && served.serverEntry !== 'failed') lastGood.set(name, served.version);

    if (served?.rejected) {
      logger?.error(
        { remote: name, rejected: served.rejected.version, reason: served.rejected.reason, serving: served.version },
        `mfe-${name}: release ${served.rejected.version} is not served (${served.rejected.reason}); serving ${served.version}, the last known good`,
      );
    } else if (!served && inputs.pointer !== null) {
      logger?.error({ remote: name, pointer: inputs.pointer }, `mfe-${name}: current names ${inputs.pointer}, and no complete release can be served`);
    }
    if (served && (before?.version !== served.version || before.dir !== served.dir)) {
      logger?.info({ remote: name, version: served.version, dir: served.dir, serverEntry: served.serverEntry }, `mfe-${name} serves ${served.version}`);
    }
    const state: RemoteState = {
      inputs: inputs.key,
      pointer: inputs.pointer,
      served,
      manifest: resolution.manifest,
      generation: ++generation,
    };
    states.set(name, state);
    return state;
  }

  /** Starts a resolution after the one before it, for what decides now (re-read once it is this one's turn). */
  function enqueue(name: RemoteName, inputsKey: string): Promise<RemoteState> {
    const previous = tails.get(name) ?? Promise.resolve();
    const promise = previous
      .catch(() => undefined)
      .then(async () => {
        const inputs = await readInputs(name);
        const state = states.get(name);
        if (state && state.inputs === inputs.key) return state;
        return resolve(name, inputs);
      });
    tails.set(name, promise);
    resolving.set(name, { inputs: inputsKey, promise });
    void promise
      .finally(() => {
        if (resolving.get(name)?.promise === promise) resolving.delete(name);
        if (tails.get(name) === promise) tails.delete(name);
      })
      .catch(() => undefined);
    return promise;
  }

  async function current(name: RemoteName): Promise<RemoteState> {
    const inputs = await readInputs(name);
    const state = states.get(name);
    if (state && state.inputs === inputs.key) return state;
    // Concurrent requests after a deploy wait for one resolution (and one import of the new server module).
    const pending = resolving.get(name);
    if (pending && pending.inputs === inputs.key) return pending.promise;
    return enqueue(name, inputs.key);
  }

  async function readSnapshot(): Promise<RemotesSnapshot> {
    const resolved = await Promise.all(REMOTE_NAMES.map(current));
    const key = resolved.map((s) => s.generation).join('|');
    if (key === lastKey) return lastSnapshot;

    const manifests = resolved.flatMap((s) => (s.manifest && s.served ? [s.manifest] : []));
    const map: Partial<RemotesMap> = {};
    const served: Partial<Record<RemoteName, ServedRemote>> = {};
    for (const s of resolved) {
      if (!s.manifest || !s.served) continue;
      const m = s.manifest;
      served[m.name] = s.served;
      map[m.name] = {
        entry: options.remoteUrls[m.name] ?? `/mfe/${m.name}/${REMOTE_ENTRY_FILE}`,
        version: m.version,
        routes: m.routes,
        // The shell gives a path to its owner by these (the site's patterns), never to the first remote declaring it.
        owns: [...currentReleasePolicy().appRoutes[m.name]],
      };
    }
    // Frozen: one request reads one value from start to end, whatever resolves meanwhile.
    lastSnapshot = Object.freeze({ manifests, map, routes: manifests.flatMap((m) => m.routes), served });
    lastKey = key;
    return lastSnapshot;
  }

  const snapshot = coalescedReads(readSnapshot);

  return {
    async snapshotFor(choice) {
      const base = await snapshot();
      const overrides = Object.entries(choice.overrides) as Array<[RemoteName, { version: string; why: ChoiceReason }]>;
      if (overrides.length === 0 && !choice.dev) return { snapshot: base, refused: [] };
      const chosen: Array<{ name: RemoteName; why: ChoiceReason; release: Extract<Chosen, { ok: true }> }> = [];
      const refused: Array<{ app: RemoteName; version: string; why: ChoiceReason; reason: string }> = [];
      for (const [name, { version, why }] of overrides) {
        const release = await chosenRelease(name, version);
        if (release.ok) chosen.push({ name, why, release });
        else refused.push({ app: name, version, why, reason: release.reason });
      }
      const withReleases = chosen.length > 0 ? applyChoice(base, chosen) : base;
      return { snapshot: choice.dev ? applyDevOverride(withReleases, choice.dev) : withReleases, refused };
    },
    async stagedDir(name, version) {
      const release = await chosenRelease(name, version);
      return release.ok ? release.served.dir : null;
    },
    async staticDirs(name) {
      const { served, pointer } = await current(name);
      // Without a pointer the dist folder is served as it is, as before releases existed.
      const dist = pointer === null && !(await unsigned(distPath(name), name)) ? distPath(name) : null;
      const dir = served?.dir ?? dist;
      return { current: dir, previous: await previousDirs(name, served) };
    },
    snapshot,
  };
}
