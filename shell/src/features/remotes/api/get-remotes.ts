import type { RemotesMap } from '@site/contracts/manifest';
import { requestJson } from '@site/ui';
import { asRemotesMap } from '../lib/remotes-map';

/** The remotes manifest the server inlined into index.html, or null (none, or unreadable). */
export function readInlineRemotes(): RemotesMap | null {
  const inline = document.getElementById('remotes-manifest')?.textContent?.trim();
  if (!inline || !inline.startsWith('{')) return null;
  try {
    return asRemotesMap(JSON.parse(inline));
  } catch {
    return null;
  }
}

/**
 * The remotes manifest: inlined into index.html by the server (no extra round trip), `/remotes.json`
 * as the fallback (e.g. the shell's vite dev server).
 */
export async function getRemotes(): Promise<RemotesMap> {
  const inline = readInlineRemotes();
  if (inline) return inline;
  // Only this fallback needs the zod contract: it loads here, not with the shell.
  const { remotesMapSchema } = await import('@site/contracts/manifest');
  return requestJson('/remotes.json', remotesMapSchema, { cache: 'no-cache' });
}
