import type { ComponentType } from 'react';
import { REMOTE_LOAD_TIMEOUT_MS } from '../../../config/remotes';

/** How long a failed load is still answered from memory (the same render cycle), before a new one is made. */
const FORGET_FAILURE_MS = 1000;

/** A remote could not be loaded (down, slow, or not a valid remote). Its area shows "unavailable". */
export class RemoteLoadError extends Error {
  constructor(
    readonly remote: string,
    reason: string,
  ) {
    super(`Remote "${remote}" could not be loaded: ${reason}`);
    this.name = 'RemoteLoadError';
  }
}

/** The three calls of the federation runtime (`virtual:__federation__`) the loader needs. */
export type FederationRuntime = {
  setRemote(name: string, config: { url: () => Promise<string>; format: 'esm'; from: 'vite' }): void;
  getRemote(name: string, exposed: string): Promise<unknown>;
  unwrapDefault(module: unknown): unknown;
};

/** Loads one remote's `./App`; `attempt` > 0 is a Retry that really goes back to the network. */
export type LoadRemoteApp = (name: string, entry: string, attempt?: number) => Promise<{ default: ComponentType }>;

/**
 * A loader of remotes' `./App` through the given federation runtime, each load bounded by `timeoutMs`.
 * Each retry registers the remote under a fresh name with a cache-busting URL, because the runtime and the
 * browser's module map both remember the first (failed) attempt. Loads are shared per attempt, so the
 * preload started before React renders and the remote's area use the same request.
 */
export function createRemoteLoader(runtime: FederationRuntime, timeoutMs = REMOTE_LOAD_TIMEOUT_MS): LoadRemoteApp {
  const loads = new Map<string, Promise<{ default: ComponentType }>>();

  return function loadRemoteApp(name, entry, attempt = 0) {
    const key = attempt === 0 ? name : `${name}__retry${attempt}`;
    const cached = loads.get(key);
    if (cached) return cached;
    const url = attempt === 0 ? entry : `${entry}${entry.includes('?') ? '&' : '?'}retry=${attempt}`;

    let timer: ReturnType<typeof setTimeout> | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new RemoteLoadError(name, `no answer within ${timeoutMs / 1000} s`)), timeoutMs);
    });
    const load = Promise.resolve()
      .then(() => {
        runtime.setRemote(key, { url: () => Promise.resolve(url), format: 'esm', from: 'vite' });
        return runtime.getRemote(key, './App');
      })
      .then((mod) => runtime.unwrapDefault(mod))
      .then((component) => {
        if (typeof component !== 'function' && (typeof component !== 'object' || component === null)) {
          throw new RemoteLoadError(name, './App is not a component');
        }
        return { default: component as ComponentType };
      })
      .catch((err: unknown) => {
        throw err instanceof RemoteLoadError ? err : new RemoteLoadError(name, err instanceof Error ? err.message : String(err));
      });
    const result = Promise.race([load, timeout]).finally(() => clearTimeout(timer));
    // A failed attempt is forgotten so that Retry really tries again, a moment later: React renders the area again
    // after the failure (a server-rendered area it was hydrating), and that render must see this failure, not start
    // another full wait.
    result.catch(() => setTimeout(() => loads.get(key) === result && loads.delete(key), FORGET_FAILURE_MS));
    loads.set(key, result);
    return result;
  };
}
