import { create } from 'zustand';
import type { RemotesMap } from '@site/contracts/manifest';
import { getRemotes } from '../api/get-remotes';

type RemotesState = {
  remotes: RemotesMap | null;
  error: string | null;
  load: () => Promise<void>;
};

export const useRemotes = create<RemotesState>((set) => ({
  remotes: null,
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
