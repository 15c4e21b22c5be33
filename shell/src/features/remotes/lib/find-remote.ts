import type { RemoteName, RemotesMap } from '@site/contracts/manifest';
import { matchesAny } from '@site/contracts/route-match';

/** Which remote owns `pathname`, from the routes the remotes declare. Nothing else names a remote's page. */
export function findRemote(remotes: RemotesMap, pathname: string): RemoteName | null {
  for (const [name, info] of Object.entries(remotes) as Array<[RemoteName, RemotesMap[RemoteName]]>) {
    if (!info) continue;
    if (matchesAny(info.routes, pathname)) return name;
  }
  return null;
}
