import type { ComponentType } from 'react';
import {
  __federation_method_getRemote as getRemote,
  __federation_method_setRemote as setRemote,
  __federation_method_unwrapDefault as unwrapDefault,
} from 'virtual:__federation__';
import { REMOTE_LOAD_TIMEOUT_MS } from '../../../config/remotes';

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

const loads = new Map<string, Promise<{ default: ComponentType }>>();

/**
 * Loads a remote's `./App` from `entry` through the federation runtime. Each retry registers the remote
 * under a fresh name with a cache-busting URL, because the runtime and the browser's module map both
 * remember the first (failed) attempt.
 */
export function loadRemoteApp(name: string, entry: string, attempt = 0, timeoutMs = REMOTE_LOAD_TIMEOUT_MS) {
  const key = attempt === 0 ? name : `${name}__retry${attempt}`;
  const cached = loads.get(key);
  if (cached) return cached;
  const url = attempt === 0 ? entry : `${entry}${entry.includes('?') ? '&' : '?'}retry=${attempt}`;
  setRemote(key, { url: () => Promise.resolve(url), format: 'esm', from: 'vite' });

  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new RemoteLoadError(name, `no answer within ${timeoutMs / 1000} s`)), timeoutMs);
  });
  const load = getRemote(key, './App')
    .then((mod) => unwrapDefault(mod))
    .then((component) => {
      if (typeof component !== 'function' && typeof component !== 'object') throw new RemoteLoadError(name, './App is not a component');
      return { default: component as ComponentType };
    })
    .catch((err: unknown) => {
      throw err instanceof RemoteLoadError ? err : new RemoteLoadError(name, err instanceof Error ? err.message : String(err));
    });
  const result = Promise.race([load, timeout]).finally(() => clearTimeout(timer));
  // A failed attempt is forgotten so that Retry really tries again.
  result.catch(() => loads.delete(key));
  loads.set(key, result);
  return result;
}
