import { create } from 'zustand';

export type ContactDraft = { subject?: string; message?: string };

type DraftState = {
  /** The latest prefill request; `seq` changes on every request so the same draft can be applied twice. */
  draft: (ContactDraft & { seq: number }) | null;
  prefill: (draft: ContactDraft) => void;
};

/** Lets any part of a page prefill the contact form (the local-discount button) without importing it. */
export const useContactDraft = create<DraftState>((set, get) => ({
  draft: null,
  prefill: (draft) => set({ draft: { ...draft, seq: (get().draft?.seq ?? 0) + 1 } }),
}));
