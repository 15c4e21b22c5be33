import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { ShellServerEntry } from '@site/contracts/server-render';
import type { Logger } from '../../lib/logger';
import { statShared } from '../../lib/stat-shared';

// The server-render contract (what the shell's server entry takes and answers) is @site/contracts/server-render.
export type { ServerArea, ShellServerEntry, SiteData } from '@site/contracts/server-render';

export interface ShellServer {
  /** The shell's server entry, re-imported when the file changes; the last one that loaded if a new one fails. */
  load(): Promise<ShellServerEntry | null>;
}

const isShellEntry = (value: unknown): value is ShellServerEntry => typeof (value as { renderPage?: unknown } | null)?.renderPage === 'function';

/**
 * Imports `shell/dist/server/entry.js` by a file URL that names its mtime and size, so a rebuilt shell counts on the
 * next request without a restart (Node caches modules by URL). Without one (an old build), pages are rendered in
 * the browser as before.
 */
export function createShellServer(options: { siteRoot: string; logger?: Logger }): ShellServer {
  const file = path.join(options.siteRoot, 'shell', 'dist', 'server', 'entry.js');
  let current: { key: string; entry: ShellServerEntry | null } | undefined;
  let pending: { key: string; promise: Promise<ShellServerEntry | null> } | undefined;

  return {
    async load() {
      const info = await statShared(file);
      if (!info) return current?.entry ?? null;
      const key = `${info.mtimeMs}-${info.size}`;
      if (current?.key === key) return current.entry;
      if (pending?.key === key) return pending.promise;
      const previous = current?.entry ?? null;
      const promise = (async () => {
        let entry = previous;
        try {
          const imported: unknown = await import(/* @vite-ignore */ `${pathToFileURL(file).href}?mtime=${key}`);
          if (!isShellEntry(imported)) throw new Error('it does not export renderPage()');
          entry = imported;
        } catch (error) {
          options.logger?.error({ module: file, err: error }, "could not import the shell's server entry; pages keep the last one that loaded");
        }
        current = { key, entry };
        return entry;
      })();
      pending = { key, promise };
      return promise.finally(() => {
        if (pending?.promise === promise) pending = undefined;
      });
    },
  };
}
