import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { ShellServerEntry } from '@site/contracts/server-render';
import type { Logger } from '../../lib/logger';
import { statShared } from '../../lib/stat-shared';
import { currentShell } from '../releases/release-format';

// The server-render contract (what the shell's server entry takes and answers) is @site/contracts/server-render.
export type { ServerArea, ShellServerEntry, SiteData } from '@site/contracts/server-render';

export interface ShellServer {
  /** The serving shell's server entry (its release, else shell/dist); the last one that loaded if a new one fails. */
  load(): Promise<ShellServerEntry | null>;
  /** The server entry of the shell build in `dir` (a page reads the shell once: shell-document.ts). */
  loadFrom(dir: string): Promise<ShellServerEntry | null>;
}

const isShellEntry = (value: unknown): value is ShellServerEntry => typeof (value as { renderPage?: unknown } | null)?.renderPage === 'function';

/**
 * Imports `<shell build>/server/entry.js` by a file URL that names its mtime and size, so a new shell release (or a
 * rebuild of shell/dist served in place) counts on the next request without a restart (Node caches modules by URL).
 * Without one (an old build), pages are rendered in the browser as before.
 */
export function createShellServer(options: { siteRoot: string; logger?: Logger }): ShellServer {
  let current: { key: string; entry: ShellServerEntry | null } | undefined;
  const pending = new Map<string, Promise<ShellServerEntry | null>>();

  async function loadFrom(dir: string): Promise<ShellServerEntry | null> {
    const file = path.join(dir, 'server', 'entry.js');
    const info = await statShared(file);
    if (!info) return current?.entry ?? null;
    const key = `${file}:${info.mtimeMs}-${info.size}`;
    if (current?.key === key) return current.entry;
    const loading = pending.get(key);
    if (loading) return loading;
    const previous = current?.entry ?? null;
    const promise = (async () => {
      let entry = previous;
      try {
        const imported: unknown = await import(/* @vite-ignore */ `${pathToFileURL(file).href}?mtime=${info.mtimeMs}-${info.size}`);
        if (!isShellEntry(imported)) throw new Error('it does not export renderPage()');
        entry = imported;
      } catch (error) {
        options.logger?.error({ module: file, err: error }, "could not import the shell's server entry; pages keep the last one that loaded");
      }
      current = { key, entry };
      return entry;
    })();
    pending.set(key, promise);
    return promise.finally(() => pending.delete(key));
  }

  return {
    loadFrom,
    async load() {
      return loadFrom((await currentShell(options.siteRoot)).dir);
    },
  };
}
