import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import {
  REMOTE_NAMES,
  mfeManifestSchema,
  type MfeManifest,
  type RemoteName,
  type RemotesMap,
} from '@site/contracts/manifest';
import type { Logger } from '../lib/logger';

export interface RemotesSnapshot {
  /** Manifests of the remotes deployed right now, in REMOTE_NAMES order. */
  manifests: MfeManifest[];
  /** `/remotes.json`: what the shell needs to load each remote. Only deployed remotes appear. */
  map: Partial<RemotesMap>;
  /** Every route pattern any deployed remote declares. */
  routes: string[];
}

export interface RemoteRegistry {
  /** The current deployment. Cheap: a few `stat` calls, files re-read only when they change. */
  snapshot(): Promise<RemotesSnapshot>;
  /** Directory served under `/mfe/<name>/`. */
  distDir(name: RemoteName): string;
}

interface CachedManifest {
  key: string;
  manifest: MfeManifest | null;
}

/**
 * Reads `${siteRoot}/mfe-<name>/dist/mfe-manifest.json` of each remote. A remote whose dist or
 * manifest is missing or invalid is absent. Redeploying a remote (copying a new dist over) is
 * picked up on the next request, keyed by the manifest's mtime and size.
 */
export function createRemoteRegistry(options: {
  siteRoot: string;
  remoteUrls: Partial<Record<RemoteName, string>>;
  logger?: Logger;
}): RemoteRegistry {
  const cache = new Map<RemoteName, CachedManifest>();
  let lastKey = '';
  let lastSnapshot: RemotesSnapshot = { manifests: [], map: {}, routes: [] };

  const distDir = (name: RemoteName) => path.join(options.siteRoot, `mfe-${name}`, 'dist');

  async function readManifest(name: RemoteName): Promise<CachedManifest> {
    const file = path.join(distDir(name), 'mfe-manifest.json');
    let key: string;
    try {
      const info = await stat(file);
      key = `${info.mtimeMs}:${info.ctimeMs}:${info.size}`;
    } catch {
      return { key: 'absent', manifest: null };
    }
    const cached = cache.get(name);
    if (cached && cached.key === key) return cached;

    let manifest: MfeManifest | null = null;
    try {
      const parsed = mfeManifestSchema.safeParse(JSON.parse(await readFile(file, 'utf8')));
      if (parsed.success && parsed.data.name === name) manifest = parsed.data;
      else options.logger?.warn({ remote: name, file }, 'ignoring an invalid mfe-manifest.json');
    } catch (error) {
      // Mid-copy or unreadable: treat as absent now, and read again next time.
      options.logger?.warn({ remote: name, file, err: error }, 'could not read mfe-manifest.json');
      return { key: 'unreadable', manifest: null };
    }
    const entry = { key, manifest };
    cache.set(name, entry);
    return entry;
  }

  return {
    distDir,
    async snapshot() {
      const entries = await Promise.all(REMOTE_NAMES.map(readManifest));
      const key = entries.map((e) => e.key).join('|');
      if (key === lastKey) return lastSnapshot;

      const manifests = entries.flatMap((e) => (e.manifest ? [e.manifest] : []));
      const map: Partial<RemotesMap> = {};
      for (const m of manifests) {
        map[m.name] = {
          entry: options.remoteUrls[m.name] ?? `/mfe/${m.name}/assets/remoteEntry.js`,
          version: m.version,
          routes: m.routes,
        };
      }
      lastSnapshot = { manifests, map, routes: manifests.flatMap((m) => m.routes) };
      lastKey = key;
      return lastSnapshot;
    },
  };
}
