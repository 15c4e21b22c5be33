/*
 * When the registry (remote-registry.ts) reads again: a remote when what decides it changed (its pointer, its
 * manifest, the serving shell, a dist's server files), and the snapshot when a file it read changed.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { RemoteName } from '@site/contracts/manifest';
import type { RemotesSnapshot } from '../../health/deployed-remotes';
import { statGeneration } from '../../lib/stat-shared';
import { currentShell, distDir, POINTER_FILE, RELEASE_NAME, releaseDir, remoteDir } from './release-format';
import { statKey } from './release-inspection';

export interface Inputs {
  /** Changes whenever anything that decides what is served changes. */
  key: string;
  /** Version `current` names; null without a pointer (the `dist/` layout). */
  pointer: string | null;
}

/** What decides each remote's resolution; `distServerFiles` are the server files the last `dist/` manifest named. */
export function createInputReader(siteRoot: string, distServerFiles: ReadonlyMap<RemoteName, string[]>) {
  const pointers = new Map<RemoteName, { key: string; version: string }>();
  async function readInputs(name: RemoteName): Promise<Inputs> {
    const pointerFile = path.join(remoteDir(siteRoot, name), POINTER_FILE);
    const pointerKey = await statKey(pointerFile);
    // The serving shell (its release, else its dist): a remote is judged against what it provides.
    const shell = await currentShell(siteRoot);
    const shellKey = `${shell.version ?? 'dist'}:${await statKey(path.join(shell.dir, 'shell-manifest.json'))}`;
    if (pointerKey === 'absent') {
      const dist = distDir(siteRoot, name);
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
    const manifestKey = RELEASE_NAME.test(version) ? await statKey(path.join(releaseDir(siteRoot, name, version), 'mfe-manifest.json')) : 'invalid';
    return { key: `release|${shellKey}|${pointerKey}|${version}|${manifestKey}`, pointer: version };
  }

  return readInputs;
}

const noop = () => undefined;

/**
 * One snapshot read at a time however many ask, and none older than the caller's question (see checkedSnapshot);
 * kept while no file it read has changed (lib/stat-shared.ts).
 */
export function coalescedReads(readSnapshot: () => Promise<RemotesSnapshot>): () => Promise<RemotesSnapshot> {
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

  return snapshot;
}
