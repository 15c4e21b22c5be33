/*
 * What one request is served beside the snapshot (release-choice.ts): a staged release it chose (a preview or a
 * canary's share), judged as a served one is, and a development override of an app's browser code.
 */
import path from 'node:path';
import type { RemoteName, RemotesMap, MfeManifest } from '@site/contracts/manifest';
import type { RemotesSnapshot, ServedRemote } from '../../health/deployed-remotes';
import type { Logger } from '../../lib/logger';
import { statShared } from '../../lib/stat-shared';
import type { ChoiceReason } from './release-choice';
import { currentReleasePolicy, currentShell, RELEASE_NAME, REMOTE_ENTRY_FILE, stagedDir as stagedDirOf } from './release-format';
import { servedRemote, statKey, type ReleaseInspector } from './release-inspection';
import { SIGNATURE_FILE } from './release-signature';

export type Chosen = { ok: true; served: ServedRemote; manifest: MfeManifest; generation: number } | { ok: false; reason: string };
/** Staged releases kept resolved (their server modules loaded) at a time, across every preview. */
const MAX_CHOSEN = 8;

export function createChosenReleases(options: {
  siteRoot: string;
  logger?: Logger;
  stagedCopy?: (name: RemoteName, version: string) => Promise<void>;
  inspector: Pick<ReleaseInspector, 'inspectRelease' | 'probeServer'>;
}) {
  const { logger } = options;
  const { inspectRelease, probeServer } = options.inspector;
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
      const served: ServedRemote = { ...servedRemote(name, version, inspection.dir, 'release', probe, new Date().toISOString(), null), chosen: 'preview' };
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

  /** `base` with each chosen release applied: its manifest, its served folder and its own remoteEntry.js address. */
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
        entry: `/mfe/${name}/${REMOTE_ENTRY_FILE}?release=${encodeURIComponent(release.manifest.version)}`,
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

  return { chosenRelease, applyChoice, applyDevOverride };
}
