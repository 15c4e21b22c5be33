import type { RemoteName, RemotesMap } from '@site/contracts/manifest';

const NAMES: Record<RemoteName, true> = { marketing: true, analysis: true, blog: true, admin: true };

/**
 * The remotes map inlined in the page, checked by the rules of `remotesMapSchema` (a test holds the two to the
 * same answers) without zod: the shell reads it on its very first render, and zod (about 90 kB gz in the browser)
 * must not be part of every first visit. Null when the value is not a remotes map.
 */
export function asRemotesMap(value: unknown): RemotesMap | null {
  if (!isRecord(value)) return null;
  const map: Partial<Record<RemoteName, unknown>> = {};
  for (const [name, info] of Object.entries(value)) {
    // An own "__proto__" key is left out, as zod leaves it out (never a remote, never copied onto anything).
    if (name === '__proto__') continue;
    if (!Object.hasOwn(NAMES, name) || !isRecord(info)) return null;
    const { entry, version, routes, owns } = info;
    if (typeof entry !== 'string' || entry.length === 0 || typeof version !== 'string') return null;
    if (!Array.isArray(routes) || !routes.every((r) => typeof r === 'string')) return null;
    if (owns !== undefined && (!Array.isArray(owns) || !owns.every((r) => typeof r === 'string'))) return null;
    map[name as RemoteName] = info;
  }
  return map as RemotesMap;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
