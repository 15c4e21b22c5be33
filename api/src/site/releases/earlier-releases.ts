/*
 * The folders that answer `/mfe/<name>/…` files a served release lacks (remote-registry.ts staticDirs): earlier
 * releases, for tabs opened before a deploy that still ask for their hashed chunks.
 */
import { readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import type { RemoteName } from '@site/contracts/manifest';
import type { ServedRemote } from '../../health/deployed-remotes';
import { distDir, PREVIOUS_RELEASES_SERVED, RELEASE_NAME, RELEASES_DIR, remoteDir } from './release-format';
import { statKey, type ReleaseInspector } from './release-inspection';

export function createEarlierReleases(options: { siteRoot: string; unsigned: ReleaseInspector['unsigned'] }) {
  const { unsigned } = options;
  const previousCache = new Map<RemoteName, { key: string; dirs: Array<{ version: string; dir: string; mtimeMs: number }> }>();

  /** Earlier releases, newest first (by folder time: deploy order), and `dist/` for tabs opened before the first release. */
  async function previousDirs(name: RemoteName, served: ServedRemote | null): Promise<string[]> {
    if (served?.layout === 'dist') return [];
    const releases = path.join(remoteDir(options.siteRoot, name), RELEASES_DIR);
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
    const allowed = await Promise.all([...earlier.map((d) => d.dir), distDir(options.siteRoot, name)].map(async (dir) => ((await unsigned(dir, name)) ? null : dir)));
    return allowed.filter((dir): dir is string => dir !== null);
  }

  return { previousDirs };
}
