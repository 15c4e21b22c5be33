import { useCallback, useEffect, useRef, useState } from 'react';
import { readDraft, removeDraft, writeDraft, type PostDraft } from '../lib/post-draft-storage';
import { sameValues, type PostFormValues } from '../lib/post-form-values';

export const AUTOSAVE_INTERVAL_MS = 3000;

/**
 * Keeps a local draft of the form every few seconds (and when the page is hidden or left), and offers a draft
 * found on load when it differs from what the server has. While an offer is open nothing is written, so an
 * older draft is never overwritten before the writer chose to restore or discard it, or typed: a draft found on load
 * is older than anything typed since, so the first edit withdraws its offer (Restore would overwrite what was typed)
 * and autosaving goes on with what is on screen. A draft kept after a conflict or a restored revision stays offered.
 */
export function useDraftAutosave({
  storageKey,
  values,
  baseline,
  baseUpdatedAt,
  ready,
}: {
  storageKey: string;
  values: PostFormValues;
  /** What the server has (or the empty form): a draft equal to it is not worth keeping. */
  baseline: PostFormValues;
  baseUpdatedAt: string | null;
  /** False until the baseline is known (the edit page's post has loaded). */
  ready: boolean;
}) {
  const [offer, setOffer] = useState<PostDraft | null>(null);
  const [savedAt, setSavedAt] = useState<string | null>(null);
  const active = useRef(false);
  const lastWritten = useRef<PostFormValues | null>(null);
  /** The form as it was when a draft found on load was offered: an edit after that withdraws the offer. */
  const offeredOver = useRef<PostFormValues | null>(null);
  const latest = useRef({ storageKey, values, baseline, baseUpdatedAt });
  // Declared before the effects below, so they (and the unmount flush) read this render's values.
  useEffect(() => {
    latest.current = { storageKey, values, baseline, baseUpdatedAt };
  });

  useEffect(() => {
    if (!ready) return;
    const draft = readDraft(storageKey);
    if (draft && !sameValues(draft.values, latest.current.baseline)) {
      active.current = false;
      offeredOver.current = latest.current.values;
      setOffer(draft);
    } else {
      if (draft) removeDraft(storageKey);
      active.current = true;
    }
  }, [ready, storageKey]);

  useEffect(() => {
    if (!offer || !offeredOver.current || sameValues(values, offeredOver.current)) return;
    offeredOver.current = null;
    setOffer(null);
    active.current = true;
  }, [offer, values]);

  const flush = useCallback(() => {
    if (!active.current) return;
    const { storageKey: key, values: v, baseline: base, baseUpdatedAt: updatedAt } = latest.current;
    if (sameValues(v, base)) {
      if (lastWritten.current) {
        removeDraft(key);
        lastWritten.current = null;
        setSavedAt(null);
      }
      return;
    }
    if (lastWritten.current && sameValues(lastWritten.current, v)) return;
    const draft: PostDraft = { values: v, savedAt: new Date().toISOString(), baseUpdatedAt: updatedAt };
    if (writeDraft(key, draft)) {
      lastWritten.current = v;
      setSavedAt(draft.savedAt);
    }
  }, []);

  useEffect(() => {
    if (!ready) return;
    const timer = window.setInterval(flush, AUTOSAVE_INTERVAL_MS);
    const onHide = () => flush();
    window.addEventListener('pagehide', onHide);
    document.addEventListener('visibilitychange', onHide);
    return () => {
      window.clearInterval(timer);
      window.removeEventListener('pagehide', onHide);
      document.removeEventListener('visibilitychange', onHide);
      flush();
    };
  }, [ready, flush]);

  /** Takes the offered draft's values (the caller puts them in the form); autosaving resumes. */
  const restore = useCallback((): PostFormValues | null => {
    const draft = offer;
    offeredOver.current = null;
    setOffer(null);
    active.current = true;
    lastWritten.current = draft?.values ?? null;
    return draft?.values ?? null;
  }, [offer]);

  const discard = useCallback(() => {
    removeDraft(latest.current.storageKey);
    lastWritten.current = null;
    offeredOver.current = null;
    setOffer(null);
    active.current = true;
  }, []);

  /** Keeps `values` as the local draft and offers it (after a 409, when the form reloads the server's version). */
  const keepAndOffer = useCallback((v: PostFormValues) => {
    const draft: PostDraft = { values: v, savedAt: new Date().toISOString(), baseUpdatedAt: latest.current.baseUpdatedAt };
    writeDraft(latest.current.storageKey, draft);
    active.current = false;
    offeredOver.current = null;
    setOffer(draft);
  }, []);

  /** After the post was saved or deleted: the draft is gone and nothing more is written. */
  const stop = useCallback(() => {
    active.current = false;
    removeDraft(latest.current.storageKey);
    lastWritten.current = null;
    setSavedAt(null);
  }, []);

  /** After a save that stays on the page: the draft is gone, autosaving continues from the new baseline. */
  const clear = useCallback(() => {
    removeDraft(latest.current.storageKey);
    lastWritten.current = null;
    setSavedAt(null);
  }, []);

  return { offer, savedAt, restore, discard, keepAndOffer, stop, clear, flush };
}
