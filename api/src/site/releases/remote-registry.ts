import { readdir, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { REMOTE_NAMES, type MfeManifest, type RemoteName, type RemotesMap } from '@site/contracts/manifest';
import type { RemoteServerModule } from '@site/contracts/server-render';
import type { Logger } from '../../lib/logger';
import { statGeneration, statShared } from '../../lib/stat-shared';
import type { RemotesSnapshot, ServedRemote, ServerEntryStatus } from '../../health/deployed-remotes';
import {
  POINTER_FILE,
  PREVIOUS_RELEASES_SERVED,
  RELEASE_NAME,
  RELEASES_DIR,
  currentReleasePolicy,
  currentShell,
  distDir as distPathOf,
  importRelease,
  incompatibility,
  judgeRelease,
  readHistory,
  readManifest,
  readShellBuiltWith,
  releaseDir,
  remoteDir as remoteDirOf,
  stagedDir as stagedDirOf,
  serverFiles,
  servingOrder,
  type SharedModules,
} from './release-format';
import { SIGNATURE_FILE, verifyRelease, type SignatureCheck, type TrustedKey } from './release-signature';
import type { ChoiceReason, ReleaseChoice } from './release-choice';

/** Loads a release's server module(s): release-format's importRelease unless a test wraps it. */
export type ReleaseImporter = (dir: string, manifest: MfeManifest, shared?: SharedModules) => ReturnType<typeof importRelease>;

const REMOTE_ENTRY = 'assets/remoteEntry.js';
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

interface Inputs {
  /** Changes whenever anything that decides what is served changes. */
  key: string;
  /** Version `current` names; null without a pointer (the `dist/` layout). */
  pointer: string | null;
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

type Inspection = { ok: true; manifest: MfeManifest; dir: string } | { ok: false; reason: string };
type Chosen = { ok: true; served: ServedRemote; manifest: MfeManifest; generation: number } | { ok: false; reason: string };
/** Staged releases kept resolved (their server modules loaded) at a time, across every preview. */
const MAX_CHOSEN = 8;
type Resolution = { served: ServedRemote | null; manifest: MfeManifest | null };
type Probe = { status: ServerEntryStatus; module: RemoteServerModule | null; reason?: string };

const noop = () => undefined;

const statKey = async (file: string) => {
  const info = await statShared(file);
  return info ? `${info.ino}:${info.mtimeMs}:${info.ctimeMs}:${info.size}` : 'absent';
};
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
  /** Signature checks by folder and signature file (a release folder never changes once named). */
  const verified = new Map<string, { key: string; check: Promise<SignatureCheck> }>();
  /** The signature check of a folder, done again only when its signature file changes. */
  async function verifyCached(dir: string, name: RemoteName): Promise<SignatureCheck> {
    const key = await statKey(path.join(dir, SIGNATURE_FILE));
    let entry = verified.get(dir);
    if (entry?.key !== key) {
      entry = { key, check: verifyRelease(dir, name, trustedKeys) };
      verified.set(dir, entry);
    }
    return entry.check;
  }
  /** Why a folder may not run, or undefined when it may (signed by a trusted key, or no key is configured). */
  async function unsigned(dir: string, name: RemoteName): Promise<string | undefined> {
    if (trustedKeys.length === 0) return undefined;
    const check = await verifyCached(dir, name);
    return check.ok ? undefined : `not signed by a key trusted for ${name}: ${check.reason}`;
  }
  const importer = options.importer ?? importRelease;
  const states = new Map<RemoteName, RemoteState>();
  const resolving = new Map<RemoteName, { inputs: string; promise: Promise<RemoteState> }>();
  /** The last resolution started per remote: the next one starts after it (serialised, newest lands last). */
  const tails = new Map<RemoteName, Promise<unknown>>();
  const pointers = new Map<RemoteName, { key: string; version: string }>();
  /** Server files named by the last `dist/` manifest: an in-place copy of them changes what is served. */
  const distServerFiles = new Map<RemoteName, string[]>();
  /** The last release served with its server module loaded, per remote: the last known good. */
  const lastGood = new Map<RemoteName, string>();
  /** The pointer the resolution under way reads (resolutions of one remote take turns). */
  const pointerOf = new Map<RemoteName, string | null>();
  const previousCache = new Map<RemoteName, { key: string; dirs: Array<{ version: string; dir: string; mtimeMs: number }> }>();
  let generation = 0;
  let lastKey = '';
  let lastSnapshot: RemotesSnapshot = { manifests: [], map: {}, routes: [], served: {} };

  const remoteDir = (name: RemoteName) => remoteDirOf(options.siteRoot, name);
  const distPath = (name: RemoteName) => distPathOf(options.siteRoot, name);

  async function readInputs(name: RemoteName): Promise<Inputs> {
    const pointerFile = path.join(remoteDir(name), POINTER_FILE);
    const pointerKey = await statKey(pointerFile);
    // The serving shell (its release, else its dist): a remote is judged against what it provides.
    const shell = await currentShell(options.siteRoot);
    const shellKey = `${shell.version ?? 'dist'}:${await statKey(path.join(shell.dir, 'shell-manifest.json'))}`;
    if (pointerKey === 'absent') {
      const dist = distPath(name);
      const keys = await Promise.all([path.join(dist, 'mfe-manifest.json'), ...(distServerFiles.get(name) ?? [])].map(statKey));
      return { key: `dist|${shellKey}|${keys.join('|')}`, pointer: null };
    }
    let cached = pointers.get(name);
    if (cached?.key !== pointerKey) {
      let version: string;
      try {
        version = (await readFile(pointerFile, 'utf8')).trim();
      } catch {
        version = '';
      }
      cached = { key: pointerKey, version };
      pointers.set(name, cached);
    }
    const version = cached.version;
    const manifestKey = RELEASE_NAME.test(version) ? await statKey(path.join(releaseDir(options.siteRoot, name, version), 'mfe-manifest.json')) : 'invalid';
    return { key: `release|${shellKey}|${pointerKey}|${version}|${manifestKey}`, pointer: version };
  }

  /** A release is served when it is complete and can run in the serving shell (a staged one: in staged/). */
  async function inspectRelease(name: RemoteName, version: string, where: 'releases' | 'staged' = 'releases'): Promise<Inspection> {
    if (!RELEASE_NAME.test(version)) return { ok: false, reason: `"${version.slice(0, 100)}" is not a release name` };
    const dir = where === 'staged' ? stagedDirOf(options.siteRoot, name, version) : releaseDir(options.siteRoot, name, version);
    if (!(await stat(dir).then((s) => s.isDirectory(), () => false))) return { ok: false, reason: `${where}/${version}/ does not exist` };
    // The deployer's judgement of an upload, made again of what is on disk (release-format's judgeRelease).
    const check = await judgeRelease(dir, name, { siteRoot: options.siteRoot, trustedKeys, verify: verifyCached });
    if (!check.ok) return { ok: false, reason: check.part === 'format' ? `${where}/${version}/${check.problem}` : `${where}/${version}: ${check.problem}` };
    return { ok: true, manifest: { ...check.manifest, version }, dir };
  }

  /** Staged releases resolved for a choice, by `name@version`: what decides it (key) and the outcome. */
  const chosenStates = new Map<string, { key: string; outcome: Promise<Chosen> }>();
  /** Snapshots with a choice applied, per base snapshot and choice (the same object while nothing changes). */
  const chosenSnapshots = new WeakMap<RemotesSnapshot, Map<string, RemotesSnapshot>>();
  let chosenGeneration = 0;

  /** A staged release as a request that chose it gets it, or why it may not run. Re-read only when its files change. */
  async function chosenRelease(name: RemoteName, version: string): Promise<Chosen> {
    if (!RELEASE_NAME.test(version)) return { ok: false, reason: `"${version.slice(0, 100)}" is not a release name` };
    const dir = stagedDirOf(options.siteRoot, name, version);
    if (options.stagedCopy && !(await statShared(dir))) {
      await options.stagedCopy(name, version).catch((error: unknown) => logger?.warn({ remote: name, version, err: error }, 'a staged release could not be copied here'));
    }
    const shell = await currentShell(options.siteRoot);
    const keys = await Promise.all([dir, path.join(dir, 'mfe-manifest.json'), path.join(dir, SIGNATURE_FILE), path.join(shell.dir, 'shell-manifest.json')].map(statKey));
    const key = `${shell.version ?? 'dist'}|${keys.join('|')}`;
    const id = `${name}@${version}`;
    const known = chosenStates.get(id);
    if (known?.key === key) return known.outcome;
    const outcome = (async (): Promise<Chosen> => {
      const inspection = await inspectRelease(name, version, 'staged');
      if (!inspection.ok) return { ok: false, reason: inspection.reason === `staged/${version}/ does not exist` ? `no staged release of ${name} is named ${version} (promoted, or removed)` : inspection.reason };
      const probe = await probeServer(inspection.dir, inspection.manifest);
      if (probe.status === 'failed') return { ok: false, reason: probe.reason ?? 'its server module does not load' };
      const served: ServedRemote = { ...servedOf(name, version, inspection.dir, 'release', probe, new Date().toISOString()), pointer: null, chosen: 'preview' };
      return { ok: true, served, manifest: inspection.manifest, generation: ++chosenGeneration };
    })();
    chosenStates.delete(id);
    chosenStates.set(id, { key, outcome });
    // A few previews at a time: the oldest resolutions (and the modules they hold) go first.
    for (const oldest of chosenStates.keys()) {
      if (chosenStates.size <= MAX_CHOSEN) break;
      chosenStates.delete(oldest);
    }
    return outcome;
  }

  function applyChoice(base: RemotesSnapshot, chosen: Array<{ name: RemoteName; why: ChoiceReason; release: Extract<Chosen, { ok: true }> }>): RemotesSnapshot {
    const key = chosen.map((c) => `${c.name}#${c.release.generation}:${c.why}`).join(',');
    let perBase = chosenSnapshots.get(base);
    if (!perBase) chosenSnapshots.set(base, (perBase = new Map()));
    const known = perBase.get(key);
    if (known) return known;
    const byName = new Map(chosen.map((c) => [c.name, c.release]));
    const manifests = base.manifests.map((m) => byName.get(m.name)?.manifest ?? m);
    for (const c of chosen) if (!base.manifests.some((m) => m.name === c.name)) manifests.push(c.release.manifest);
    const map: Partial<RemotesMap> = { ...base.map };
    const served: Partial<Record<RemoteName, ServedRemote>> = { ...base.served };
    for (const { name, why, release } of chosen) {
      // Why this request has it: a preview's page says so (its banner); a canary's looks like any served page.
      served[name] = release.served.chosen === why ? release.served : { ...release.served, chosen: why };
      // Its own address: the served release's remoteEntry.js stays what every other browser (and cache) gets there.
      map[name] = {
        entry: `/mfe/${name}/${REMOTE_ENTRY}?release=${encodeURIComponent(release.manifest.version)}`,
        version: release.manifest.version,
        routes: release.manifest.routes,
        owns: [...currentReleasePolicy().appRoutes[name]],
      };
    }
    const snapshot: RemotesSnapshot = Object.freeze({ manifests, map, routes: manifests.flatMap((m) => m.routes), served });
    if (perBase.size >= MAX_CHOSEN) perBase.clear();
    perBase.set(key, snapshot);
    return snapshot;
  }

  /** Snapshots with a development override applied, per snapshot and override (the same object while nothing changes). */
  const devSnapshots = new WeakMap<RemotesSnapshot, Map<string, RemotesSnapshot>>();
  /**
   * A development override (dev-override-tokens.ts): the app's entry in the remotes map is the developer's URL, and its
   * manifest names no server module, so its pages render in the browser alone (the server never runs the developer's
   * code, nor renders the served release's markup for the browser to hydrate with another build). Its routes stay the
   * served release's. An app with nothing served is left as it is: there is no manifest to route its pages with.
   */
  function applyDevOverride(base: RemotesSnapshot, dev: { app: RemoteName; entryUrl: string }): RemotesSnapshot {
    const current = base.manifests.find((m) => m.name === dev.app);
    const entry = base.map[dev.app];
    if (!current || !entry) return base;
    const key = `${dev.app}\n${dev.entryUrl}`;
    let perBase = devSnapshots.get(base);
    if (!perBase) devSnapshots.set(base, (perBase = new Map()));
    const known = perBase.get(key);
    if (known) return known;
    const { server: _server, ...inBrowser } = current;
    const manifests = base.manifests.map((m) => (m === current ? inBrowser : m));
    const served = { ...base.served };
    const was = served[dev.app];
    if (was) served[dev.app] = { ...was, module: null, serverEntry: 'none' };
    const map: Partial<RemotesMap> = { ...base.map, [dev.app]: { ...entry, entry: dev.entryUrl } };
    const snapshot: RemotesSnapshot = Object.freeze({ manifests, map, routes: manifests.flatMap((m) => m.routes), served });
    if (perBase.size >= MAX_CHOSEN) perBase.clear();
    perBase.set(key, snapshot);
    return snapshot;
  }

  /** Imports the server module(s) of a release with release-format's importer, the same as the deploy checks them. */
  async function probeServer(dir: string, manifest: MfeManifest): Promise<Probe> {
    if (serverFiles(manifest).length === 0) return { status: 'none', module: null };
    const result = await importer(dir, manifest, await options.shared?.());
    if (!result.ok) return { status: 'failed', module: null, reason: result.reason };
    return { status: 'ok', module: result.module };
  }

  const servedOf = (name: RemoteName, version: string, dir: string, layout: ServedRemote['layout'], probe: Probe, since: string): ServedRemote => ({
    name,
    version,
    dir,
    layout,
    serverEntry: probe.status,
    ...(probe.reason ? { serverError: probe.reason } : {}),
    module: probe.module,
    since,
    pointer: layout === 'release' ? pointerOf.get(name) ?? null : null,
  });

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

  /** Earlier releases, newest first (by folder time: deploy order), and `dist/` for tabs opened before the first release. */
  async function previousDirs(name: RemoteName, served: ServedRemote | null): Promise<string[]> {
    if (served?.layout === 'dist') return [];
    const releases = path.join(remoteDir(name), RELEASES_DIR);
    const key = await statKey(releases);
    let cached = previousCache.get(name);
    if (cached?.key !== key) {
      const dirs: Array<{ version: string; dir: string; mtimeMs: number }> = [];
      try {
        for (const entry of await readdir(releases, { withFileTypes: true })) {
          if (!entry.isDirectory() || !RELEASE_NAME.test(entry.name)) continue;
          const dir = path.join(releases, entry.name);
          const info = await stat(dir).catch(() => undefined);
          if (info) dirs.push({ version: entry.name, dir, mtimeMs: info.mtimeMs });
        }
      } catch {
        // No releases folder: nothing earlier to serve.
      }
      dirs.sort((a, b) => b.mtimeMs - a.mtimeMs);
      cached = { key, dirs };
      previousCache.set(name, cached);
    }
    const earlier = cached.dirs.filter((d) => d.version !== served?.version).slice(0, PREVIOUS_RELEASES_SERVED);
    // With trusted keys, only signed folders answer for files (a stored but unsigned release serves nothing).
    const allowed = await Promise.all([...earlier.map((d) => d.dir), distPath(name)].map(async (dir) => ((await unsigned(dir, name)) ? null : dir)));
    return allowed.filter((dir): dir is string => dir !== null);
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
        entry: options.remoteUrls[m.name] ?? `/mfe/${m.name}/${REMOTE_ENTRY}`,
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

  let checking: Promise<RemotesSnapshot> | undefined;
  let nextCheck: Promise<RemotesSnapshot> | undefined;
  function startCheck(): Promise<RemotesSnapshot> {
    const check = readSnapshot();
    checking = check;
    void check
      .finally(() => {
        if (checking === check) checking = undefined;
      })
      .catch(() => undefined);
    return check;
  }

  /** The last snapshot with the stats' generation it was read at: kept while no file it read has changed. */
  let known: { generation: number; snapshot: Promise<RemotesSnapshot> } | undefined;

  function snapshot(): Promise<RemotesSnapshot> {
    const generation = statGeneration();
    if (known?.generation === generation) return known.snapshot;
    const read = checkedSnapshot();
    const entry = { generation, snapshot: read };
    known = entry;
    read.catch(() => {
      if (known === entry) known = undefined;
    });
    return read;
  }

  function checkedSnapshot(): Promise<RemotesSnapshot> {
    // Every page request asks, and under load hundreds ask at once. A check (a few stats per remote) already under
    // way began before this caller asked (a deploy may have landed since), so the caller waits for the next one,
    // which starts when that one ends and is shared by everyone who asks meanwhile: what each caller gets was read
    // after it asked, and there is one check at a time however many ask.
    if (!checking) return startCheck();
    nextCheck ??= checking.then(noop, noop).then(() => {
      nextCheck = undefined;
      return startCheck();
    });
    return nextCheck;
  }

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
