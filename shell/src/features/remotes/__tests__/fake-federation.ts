import type { FederationRuntime } from '../lib/remote-loader';

/**
 * A stand-in for the federation plugin's runtime (third-party code that only exists in a vite build):
 * `network(url)` plays the browser importing a remoteEntry.js; every URL asked for is recorded.
 */
export function fakeFederation(network: (url: string) => Promise<unknown>) {
  const urls = new Map<string, () => Promise<string>>();
  const requested: string[] = [];
  const runtime: FederationRuntime = {
    setRemote: (name, config) => urls.set(name, config.url),
    getRemote: async (name, exposed) => {
      if (exposed !== './App') throw new Error(`unexpected module ${exposed}`);
      const url = await urls.get(name)!();
      requested.push(url);
      return network(url);
    },
    // As the plugin does: an ES module namespace gives its default export.
    unwrapDefault: (mod) => (mod && typeof mod === 'object' && 'default' in mod ? mod.default : mod),
  };
  return { runtime, requested };
}

/** A promise that never settles: a remote host that accepts the connection and never answers. */
export const never = () => new Promise<never>(() => undefined);
