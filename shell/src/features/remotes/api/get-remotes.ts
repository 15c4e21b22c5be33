import { remotesMapSchema, type RemotesMap } from '@site/contracts/manifest';
import { requestJson } from '@site/ui';

/**
 * The remotes manifest: inlined into index.html by the server (no extra round trip), `/remotes.json`
 * as the fallback (e.g. the shell's vite dev server).
 */
export async function getRemotes(): Promise<RemotesMap> {
  const inline = document.getElementById('remotes-manifest')?.textContent?.trim();
  if (inline && inline.startsWith('{')) {
    try {
      const parsed = remotesMapSchema.safeParse(JSON.parse(inline));
      if (parsed.success) return parsed.data;
    } catch {
      // fall through to the network copy
    }
  }
  return requestJson('/remotes.json', remotesMapSchema, { cache: 'no-cache' });
}
