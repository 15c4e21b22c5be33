import type { Context } from 'koa';
import type { RemoteName } from '@site/contracts/manifest';
import type { RemoteRegistry } from '../releases/remote-registry';
import { IMMUTABLE, cacheControlOf, safeJoin, sendStaticFile } from './static-files';

/** The server module (`server/` of a dist) is for the server; browsers get the client build only. */
const isServerOnly = (relative: string) => relative === 'server' || relative.startsWith('server/');

/**
 * Answers `/mfe/<name>/<urlPath>` from the release the remote serves now. A content-hashed asset the current
 * release lacks is looked up in the previous releases (newest first), so a tab opened before a deploy or a rollback
 * still gets the chunks its version asks for. Entry points (`remoteEntry.js`, the manifest) only ever come from
 * the current release. With `chosen`, the staged release this request previews answers first (`private`). Returns
 * false when nothing answered.
 */
export async function sendRemoteFile(ctx: Context, remotes: RemoteRegistry, name: RemoteName, urlPath: string, chosen?: string): Promise<boolean> {
  // A release this request chose (a preview of a staged one, release-choice.ts): its files first, for this browser only.
  const staged = chosen ? await remotes.stagedDir(name, chosen) : null;
  if (staged && (await sendStaticFile(ctx, staged, urlPath, { exclude: isServerOnly, private: true }))) return true;
  const { current, previous } = await remotes.staticDirs(name);
  if (current && (await sendStaticFile(ctx, current, urlPath, { exclude: isServerOnly, lookAgain: true }))) return true;
  const target = safeJoin('/remote', urlPath);
  if (!target || cacheControlOf(target.relative) !== IMMUTABLE) return false;
  for (const dir of previous) {
    if (await sendStaticFile(ctx, dir, urlPath, { exclude: isServerOnly })) return true;
  }
  return false;
}
