import type { RemoteName, RemotesMap } from '@site/contracts/manifest';
import { bestRouteMatch, routeScore } from '@site/contracts/route-match';
import { ownerOfPath, type OwnedPattern } from '@site/contracts/route-ownership';

/**
 * Which remote renders `pathname`: its owner, the remote whose ownership pattern (`owns`, the site's configuration)
 * covers it most specifically, when that remote declares a route for it. Never the order of the remotes: a release
 * that declares another app's path cannot take it (the server also refuses such a release). From a server that sends
 * no `owns`, the remote with the most specific matching route; two remotes tied for a path get neither.
 */
// Not REMOTE_NAMES: the manifest module brings zod, which the shell's first render must not load.
const NAMES: readonly RemoteName[] = ['marketing', 'analysis', 'blog', 'admin'];

export function findRemote(remotes: RemotesMap, pathname: string): RemoteName | null {
  const present = NAMES.flatMap((name) => (remotes[name] ? [[name, remotes[name]] as const] : []));
  const table: OwnedPattern[] = present.flatMap(([owner, info]) => (info.owns ?? []).map((pattern) => ({ owner, pattern })));
  if (table.length > 0) {
    const owner = ownerOfPath(table, pathname);
    const info = owner && owner !== 'server' ? remotes[owner] : undefined;
    return info && bestRouteMatch(info.routes, pathname) ? (owner as RemoteName) : null;
  }
  let best: { name: RemoteName | null; score: number } | null = null;
  for (const [name, info] of present) {
    const match = bestRouteMatch(info.routes, pathname);
    if (!match) continue;
    const score = routeScore(match.pattern);
    if (!best || score > best.score) best = { name, score };
    else if (score === best.score && best.name !== name) best = { name: null, score };
  }
  return best?.name ?? null;
}
