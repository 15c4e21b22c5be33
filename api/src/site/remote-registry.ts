import { readdir, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import {
  REMOTE_NAMES,
  mfeManifestSchema,
  type MfeManifest,
  type RemoteName,
  type RemotesMap,
} from '@site/contracts/manifest';
import type { Logger } from '../lib/logger';

/**
 * Deploy layout of one remote below SITE_ROOT (written by scripts/deploy-remote.mjs):
 *
 *   mfe-<name>/releases/<version>/   a full dist, never changed once its pointer may name it
 *   mfe-<name>/current               the served version (one line), swapped by write-temp-then-rename
 *   mfe-<name>/history.json          { stack: [versions, oldest first], log: [...] } for rollback
 *   mfe-<name>/dist/                 what `npm run build` writes: served only when there is no `current`
 */
export const RELEASES_DIR = 'releases';
export const POINTER_FILE = 'current';
export const HISTORY_FILE = 'history.json';
/** A release folder name: what `current` may hold. No dot first, so `.incoming-*` copies can never be named. */
export const RELEASE_NAME = /^[A-Z0-9][\w.+-]{0,99}$/i;
/** The remote entry every release must hold (the shell loads `/mfe/<name>/assets/remoteEntry.js`). */
export const REMOTE_ENTRY_FILE = 'assets/remoteEntry.js';
/** How many earlier releases still answer for content-hashed assets (open tabs of an older version). */
export const PREVIOUS_RELEASES_SERVED = 5;
/** A server module that takes longer than this to import counts as failing to load. */
const PROBE_TIMEOUT_MS = 5000;

export type ServerEntryStatus = 'ok' | 'failed' | 'none';

/** What one remote serves right now. */
export interface ServedRemote {
  name: RemoteName;
  /** The served version: the release folder's name, or the manifest's version when served from `dist/`. */
  version: string;
  /** Served under `/mfe/<name>/`; its server module(s) are imported from here too. */
  dir: string;
  layout: 'release' | 'dist';
  /** Whether the server module(s) the manifest names imported: `none` when it names none. */
  serverEntry: ServerEntryStatus;
  /** Why the server module does not load, when `serverEntry` is `failed`. */
  serverError?: string;
  /**
   * Set when `current` names a release that is not served (missing, incomplete, or its server module does not
   * import) and this earlier one (the last known good) is served instead.
   */
  rejected?: { version: string; reason: string };
}

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

export interface RemoteRegistry {
  /** The current deployment. Cheap: a few `stat` calls per remote; files are re-read only when they change. */
  snapshot(): Promise<RemotesSnapshot>;
  /** Directory served under `/mfe/<name>/` as of the last snapshot (`dist/` before any). */
  distDir(name: RemoteName): string;
  /**
   * Where `/mfe/<name>/…` files come from, checked now: the served release (null when the remote's pointer names
   * nothing servable), then earlier releases, newest first, for content-hashed assets only.
   */
  staticDirs(name: RemoteName): Promise<{ current: string | null; previous: string[] }>;
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

const statKey = async (file: string) => {
  try {
    const info = await stat(file);
    return `${info.ino}:${info.mtimeMs}:${info.ctimeMs}:${info.size}`;
  } catch {
    return 'absent';
  }
};
const isFile = async (file: string) => {
  try {
    return (await stat(file)).isFile();
  } catch {
    return false;
  }
};
const errorText = (error: unknown) => (error instanceof Error ? error.message : String(error)).split('\n')[0]!.slice(0, 300);

/** The server modules a manifest names (`server.routes`, `server.entry`), relative to its dir. */
function serverFiles(manifest: MfeManifest): Array<[string, string]> {
  return Object.entries((manifest.server ?? {}) as Record<string, unknown>).filter(
    (e): e is [string, string] => typeof e[1] === 'string' && /\.m?js$/.test(e[1]),
  );
}

/** What a server module must export to count as loaded: the route table, and the server entry its render function. */
function exportProblem(key: string, imported: Record<string, unknown>): string | undefined {
  if ((key === 'routes' || key === 'entry') && !Array.isArray(imported.routes)) return 'it does not export a `routes` array';
  if (key === 'entry' && typeof imported.render !== 'function') return 'it does not export a `render` function';
  return undefined;
}

/**
 * The file URL a server module is imported by: the same as server-modules.ts builds (version and stamp in the
 * query), so the check here and the server's later import share one module instance.
 */
async function serverModuleUrl(dir: string, relative: string, version: string): Promise<string> {
  const root = path.resolve(dir);
  const file = path.resolve(root, relative);
  if (!file.startsWith(root + path.sep)) throw new Error(`${relative} is outside the release`);
  const info = await stat(file);
  return `${pathToFileURL(file).href}?version=${encodeURIComponent(version)}&mtime=${info.mtimeMs}-${info.size}`;
}

/**
 * Serves each remote from `mfe-<name>/releases/<current>/` when a `current` pointer exists, else from
 * `mfe-<name>/dist/`. A release is served only when it is complete (a valid manifest of this remote,
 * `assets/remoteEntry.js`, every server module it names) and its server module(s) import; otherwise the last
 * known good release keeps serving (the one served before in this process, else the one below it in
 * history.json's stack), and the snapshot says which release was rejected and why. A remote with nothing
 * servable is absent. Deploys and rollbacks count on the next request: no restart.
 */
export function createRemoteRegistry(options: {
  siteRoot: string;
  remoteUrls: Partial<Record<RemoteName, string>>;
  logger?: Logger;
}): RemoteRegistry {
  const { logger } = options;
  const states = new Map<RemoteName, RemoteState>();
  const resolving = new Map<RemoteName, { inputs: string; promise: Promise<RemoteState> }>();
  const pointers = new Map<RemoteName, { key: string; version: string }>();
  /** Server files named by the last `dist/` manifest: an in-place copy of them changes what health reports. */
  const distServerFiles = new Map<RemoteName, string[]>();
  /** The last release served with its server module loaded, per remote: the last known good. */
  const lastGood = new Map<RemoteName, string>();
  const probes = new Map<string, Promise<{ ok: true } | { ok: false; reason: string }>>();
  const previousCache = new Map<RemoteName, { key: string; dirs: Array<{ version: string; dir: string; mtimeMs: number }> }>();
  let generation = 0;
  let lastKey = '';
  let lastSnapshot: RemotesSnapshot = { manifests: [], map: {}, routes: [], served: {} };

  const remoteDir = (name: RemoteName) => path.join(options.siteRoot, `mfe-${name}`);
  const distPath = (name: RemoteName) => path.join(remoteDir(name), 'dist');
  const releasePath = (name: RemoteName, version: string) => path.join(remoteDir(name), RELEASES_DIR, version);

  async function readInputs(name: RemoteName): Promise<Inputs> {
    const pointerFile = path.join(remoteDir(name), POINTER_FILE);
    const pointerKey = await statKey(pointerFile);
    if (pointerKey === 'absent') {
      const dist = distPath(name);
      const keys = await Promise.all([path.join(dist, 'mfe-manifest.json'), ...(distServerFiles.get(name) ?? [])].map(statKey));
      return { key: `dist|${keys.join('|')}`, pointer: null };
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
    const manifestKey = RELEASE_NAME.test(version) ? await statKey(path.join(releasePath(name, version), 'mfe-manifest.json')) : 'invalid';
    return { key: `release|${pointerKey}|${version}|${manifestKey}`, pointer: version };
  }

  async function readManifest(name: RemoteName, dir: string): Promise<{ manifest: MfeManifest } | { reason: string }> {
    const file = path.join(dir, 'mfe-manifest.json');
    let raw: string;
    try {
      raw = await readFile(file, 'utf8');
    } catch {
      return { reason: 'mfe-manifest.json is missing' };
    }
    try {
      const parsed = mfeManifestSchema.safeParse(JSON.parse(raw));
      if (!parsed.success) return { reason: 'mfe-manifest.json is invalid' };
      if (parsed.data.name !== name) return { reason: `mfe-manifest.json names the remote "${parsed.data.name}"` };
      return { manifest: parsed.data };
    } catch {
      // Mid-copy (the dist layout) or hand-edited: read again when it changes.
      return { reason: 'mfe-manifest.json is not valid JSON' };
    }
  }

  /** A release is complete when its manifest is this remote's and every file the manifest needs is there. */
  async function inspectRelease(name: RemoteName, version: string): Promise<Inspection> {
    if (!RELEASE_NAME.test(version)) return { ok: false, reason: `"${version.slice(0, 100)}" is not a release name` };
    const dir = releasePath(name, version);
    if (!(await stat(dir).then((s) => s.isDirectory(), () => false))) return { ok: false, reason: `releases/${version}/ does not exist` };
    const read = await readManifest(name, dir);
    if ('reason' in read) return { ok: false, reason: `releases/${version}/${read.reason}` };
    if (!(await isFile(path.join(dir, REMOTE_ENTRY_FILE)))) return { ok: false, reason: `releases/${version}/${REMOTE_ENTRY_FILE} is missing` };
    for (const [, relative] of serverFiles(read.manifest)) {
      if (!(await isFile(path.resolve(dir, relative)))) return { ok: false, reason: `releases/${version}/${relative} is missing` };
    }
    return { ok: true, manifest: { ...read.manifest, version }, dir };
  }

  /** Imports the server module(s) of a release the way the server will; a failure or a hang means it does not load. */
  async function probeServer(dir: string, manifest: MfeManifest): Promise<{ status: ServerEntryStatus; reason?: string }> {
    const files = serverFiles(manifest);
    if (files.length === 0) return { status: 'none' };
    for (const [key, relative] of files) {
      let url: string;
      try {
        url = await serverModuleUrl(dir, relative, manifest.version);
      } catch (error) {
        return { status: 'failed', reason: `${relative}: ${errorText(error)}` };
      }
      let probe = probes.get(url);
      if (!probe) {
        probe = (async () => {
          let timer: NodeJS.Timeout | undefined;
          try {
            const imported = (await Promise.race([
              import(/* @vite-ignore */ url),
              new Promise((_, reject) => {
                timer = setTimeout(() => reject(new Error(`did not load within ${PROBE_TIMEOUT_MS} ms`)), PROBE_TIMEOUT_MS);
              }),
            ])) as Record<string, unknown>;
            const problem = exportProblem(key, imported);
            return problem ? { ok: false as const, reason: problem } : { ok: true as const };
          } catch (error) {
            return { ok: false as const, reason: errorText(error) };
          } finally {
            clearTimeout(timer);
          }
        })();
        probes.set(url, probe);
      }
      const result = await probe;
      if (!result.ok) return { status: 'failed', reason: `${relative} does not load: ${result.reason}` };
    }
    return { status: 'ok' };
  }

  async function historyStack(name: RemoteName): Promise<string[]> {
    try {
      const history = JSON.parse(await readFile(path.join(remoteDir(name), HISTORY_FILE), 'utf8')) as { stack?: unknown };
      return Array.isArray(history.stack) ? history.stack.filter((v): v is string => typeof v === 'string') : [];
    } catch {
      return [];
    }
  }

  async function resolveDist(name: RemoteName): Promise<Pick<RemoteState, 'served' | 'manifest'>> {
    const dir = distPath(name);
    const read = await readManifest(name, dir);
    if ('reason' in read) {
      if (read.reason !== 'mfe-manifest.json is missing') logger?.warn({ remote: name, dir }, `ignoring mfe-${name}/dist: ${read.reason}`);
      distServerFiles.delete(name);
      return { served: null, manifest: null };
    }
    const manifest = read.manifest;
    distServerFiles.set(
      name,
      serverFiles(manifest).map(([, relative]) => path.resolve(dir, relative)),
    );
    // An in-place copy has nothing earlier to fall back to: it is served, and health says whether its server module loads.
    const probe = await probeServer(dir, manifest);
    if (probe.status === 'failed') logger?.error({ remote: name, dir, reason: probe.reason }, 'the server module of the dist does not load');
    return {
      served: { name, version: manifest.version, dir, layout: 'dist', serverEntry: probe.status, ...(probe.reason ? { serverError: probe.reason } : {}) },
      manifest,
    };
  }

  async function resolveRelease(name: RemoteName, pointer: string): Promise<Pick<RemoteState, 'served' | 'manifest'>> {
    const stack = await historyStack(name);
    const below = stack.lastIndexOf(pointer) >= 0 ? stack.slice(0, stack.lastIndexOf(pointer)) : stack;
    const good = lastGood.get(name);
    const candidates = [...new Set([pointer, ...(good ? [good] : []), ...below.reverse()])];

    let rejected: ServedRemote['rejected'];
    let lastResort: ServedRemote | undefined;
    let lastResortManifest: MfeManifest | undefined;
    for (const version of candidates) {
      const inspection = await inspectRelease(name, version);
      if (!inspection.ok) {
        rejected ??= { version, reason: inspection.reason };
        continue;
      }
      const probe = await probeServer(inspection.dir, inspection.manifest);
      const served: ServedRemote = {
        name,
        version,
        dir: inspection.dir,
        layout: 'release',
        serverEntry: probe.status,
        ...(probe.reason ? { serverError: probe.reason } : {}),
      };
      if (probe.status === 'failed') {
        rejected ??= { version, reason: probe.reason ?? 'its server module does not load' };
        if (!lastResort) [lastResort, lastResortManifest] = [served, inspection.manifest];
        continue;
      }
      if (version !== pointer) served.rejected = rejected;
      return { served, manifest: inspection.manifest };
    }
    // Nothing earlier loads either: a complete release whose server module fails still serves its browser code.
    if (lastResort) return { served: { ...lastResort, ...(lastResort.version !== pointer ? { rejected } : {}) }, manifest: lastResortManifest! };
    return { served: null, manifest: null };
  }

  async function resolve(name: RemoteName, inputs: Inputs): Promise<RemoteState> {
    const before = states.get(name)?.served;
    const { served, manifest } = inputs.pointer === null ? await resolveDist(name) : await resolveRelease(name, inputs.pointer);
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
    const state = { inputs: inputs.key, pointer: inputs.pointer, served, manifest, generation: ++generation };
    states.set(name, state);
    return state;
  }

  async function current(name: RemoteName): Promise<RemoteState> {
    const inputs = await readInputs(name);
    const state = states.get(name);
    if (state && state.inputs === inputs.key) return state;
    // Concurrent requests after a deploy wait for one resolution (and one import of the new server module).
    const pending = resolving.get(name);
    if (pending && pending.inputs === inputs.key) return pending.promise;
    const promise = resolve(name, inputs).finally(() => {
      if (resolving.get(name)?.promise === promise) resolving.delete(name);
    });
    resolving.set(name, { inputs: inputs.key, promise });
    return promise;
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
    const earlier = cached.dirs
      .filter((d) => d.version !== served?.version)
      .slice(0, PREVIOUS_RELEASES_SERVED)
      .map((d) => d.dir);
    return [...earlier, distPath(name)];
  }

  return {
    distDir: (name) => states.get(name)?.served?.dir ?? distPath(name),
    async staticDirs(name) {
      const { served, pointer } = await current(name);
      // Without a pointer the dist folder is served as it is, as before releases existed.
      const dir = served?.dir ?? (pointer === null ? distPath(name) : null);
      return { current: dir, previous: await previousDirs(name, served) };
    },
    async snapshot() {
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
        };
      }
      lastSnapshot = { manifests, map, routes: manifests.flatMap((m) => m.routes), served };
      lastKey = key;
      return lastSnapshot;
    },
  };
}
