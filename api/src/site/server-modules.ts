import { stat } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { MfeManifest, RemoteName } from '@site/contracts/manifest';
import type { Logger } from '../lib/logger';

/** One route of a remote's server module: the parts of its `RemoteRouteDef` the server uses. */
export interface ServerRouteDef {
  path: string;
  /** Server data of a page: `source` names the loader, `param` the route param it is given (if any). */
  data?: { source: string; param?: string };
  /** The dynamic page's head from its params and the loaded data (validated by the caller). */
  head?: (params: Record<string, string>, data: unknown) => unknown;
}

/**
 * What a remote's server module exports: `server.entry` of its manifest (`dist/server/entry.js`), or a module with
 * the route table alone (`server.routes`, older builds). The contract of `render` is in the README.
 */
export interface RemoteServerModule {
  routes: ServerRouteDef[];
  /** The remote's page for `url` as a React element, rendered by the shell's server entry under its router. */
  render?: (url: string, context: { data?: unknown; source?: string; status?: number; signal?: AbortSignal }) => Promise<RemoteRenderResult>;
}

/** What a remote's `render` answers (`createRemoteRender` in @site/ui builds it). */
export interface RemoteRenderResult {
  /** A React element (created with the server's one React): the remote's ./App for the URL. */
  element: unknown;
  status?: number;
  /** The data the page reads back in the browser, when it differs from what it was given. */
  data?: unknown;
}

export interface ServerModules {
  /**
   * The server module of a deployed remote: imported once per deployment, re-imported when the file or the
   * manifest version changes. Null when the remote declares none or none has loaded yet.
   */
  load(manifest: MfeManifest): Promise<RemoteServerModule | null>;
}

interface Loaded {
  /** Deployment the last import attempt was for (version, mtime, size): the same key is never imported twice. */
  key: string;
  /** The last module that imported and validated, possibly of an earlier deployment. */
  module: RemoteServerModule | null;
}

function isServerModule(value: unknown): value is RemoteServerModule {
  const routes = (value as { routes?: unknown } | null)?.routes;
  return (
    Array.isArray(routes) &&
    routes.every((r: ServerRouteDef | null) => r && typeof r.path === 'string' && (r.head === undefined || typeof r.head === 'function')) &&
    ['undefined', 'function'].includes(typeof (value as { render?: unknown }).render)
  );
}

/**
 * Imports each remote's server module by a versioned file URL (`routes.js?version=…&mtime=…`): Node caches modules
 * by URL forever, so a new URL per deployment is what makes a redeployed dist count on the next request without a
 * restart (each deployment's module stays in memory; deployments are rare). A module that fails to import (mid-copy,
 * broken build, wrong exports) is logged and the last one that loaded keeps serving.
 */
export function createServerModules(options: { distDir: (name: RemoteName) => string; logger?: Logger }): ServerModules {
  const loaded = new Map<RemoteName, Loaded>();
  const inFlight = new Map<string, Promise<RemoteServerModule | null>>();

  async function importModule(name: RemoteName, key: string, url: string, previous: RemoteServerModule | null) {
    let module = previous;
    try {
      const imported: unknown = await import(/* @vite-ignore */ url);
      if (!isServerModule(imported)) throw new Error('it does not export a `routes` array of { path, data?, head? } (and `render`, a function, if any)');
      module = imported;
    } catch (error) {
      options.logger?.error(
        { remote: name, module: url, err: error },
        previous ? 'could not import the server module; keeping the last one that loaded' : 'could not import the server module',
      );
    }
    loaded.set(name, { key, module });
    return module;
  }

  return {
    async load(manifest) {
      const relative = manifest.server?.entry ?? manifest.server?.routes;
      if (!relative) return null;
      const name = manifest.name;
      const previous = loaded.get(name)?.module ?? null;
      const dir = path.resolve(options.distDir(name));
      const file = path.resolve(dir, relative);
      if (!file.startsWith(dir + path.sep)) {
        options.logger?.warn({ remote: name, module: relative }, 'ignoring a server module outside the dist');
        return previous;
      }
      let stamp: string;
      try {
        const info = await stat(file);
        stamp = `${info.mtimeMs}-${info.size}`;
      } catch (error) {
        options.logger?.warn({ remote: name, module: file, err: error }, 'the manifest names a server module that is missing');
        return previous;
      }
      const key = `${manifest.version}@${stamp}`;
      if (loaded.get(name)?.key === key) return previous;

      const url = `${pathToFileURL(file).href}?version=${encodeURIComponent(manifest.version)}&mtime=${stamp}`;
      let pending = inFlight.get(url);
      if (!pending) {
        pending = importModule(name, key, url, previous).finally(() => inFlight.delete(url));
        inFlight.set(url, pending);
      }
      return pending;
    },
  };
}
