import { create } from 'zustand';
import type { RemotesMap } from '@site/contracts/manifest';
import { getRemotes, readInlineRemotes } from '../api/get-remotes';

type RemotesState = {
  remotes: RemotesMap | null;
  error: string | null;
  load: () => Promise<void>;
};

// The map the server inlined is read at once, so the first render (a hydration) already knows which remote owns the page.
export const useRemotes = create<RemotesState>((set) => ({
  remotes: typeof document === 'undefined' ? null : readInlineRemotes(),
  error: null,
  load: async () => {
    set({ error: null });
    try {
      set({ remotes: await getRemotes() });
    } catch (err) {
      set({ error: err instanceof Error ? err.message : 'Could not load the site map' });
    }
  },
}));
