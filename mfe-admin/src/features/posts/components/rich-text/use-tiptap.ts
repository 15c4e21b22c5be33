import { Editor, type EditorOptions } from '@tiptap/core';
import { Selection, TextSelection } from '@tiptap/pm/state';
import { useCallback, useEffect, useLayoutEffect, useRef, useState, useSyncExternalStore } from 'react';

/**
 * A Tiptap editor for a React component, with React's own hooks: made once, mounted into the returned ref's element
 * (again after a StrictMode remount: `unmount` keeps its state) and unmounted with the component. Not @tiptap/react:
 * its use-sync-external-store shim requires React as CommonJS, which the federated build bundles as a second copy of
 * React beside the shared one, and hooks called on that copy fail.
 */
export function useTiptap(create: () => Partial<EditorOptions>): { editor: Editor; mountRef: React.RefObject<HTMLDivElement | null> } {
  const [editor] = useState(() => new Editor({ ...create(), element: null }));
  const mountRef = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const el = mountRef.current;
    if (!el) return;
    editor.mount(el);
    return () => editor.unmount();
  }, [editor]);
  return { editor, mountRef };
}

/**
 * A value read from the editor's state, kept current through its transactions (a toolbar's pressed buttons). `read`
 * must return a string or a number (compared by value), so the component renders again only when it changes.
 */
export function useEditorValue<T extends string | number>(editor: Editor, read: (editor: Editor) => T): T {
  const subscribe = useCallback(
    (onChange: () => void) => {
      editor.on('transaction', onChange);
      return () => {
        editor.off('transaction', onChange);
      };
    },
    [editor],
  );
  return useSyncExternalStore(subscribe, () => read(editor));
}

/** A run of edits is written once it pauses this long (ms)… */
const QUIET_MS = 300;
/** …or, while it goes on, at least this often (ms). */
const MAX_WAIT_MS = 1000;

/**
 * Calls `write` (which reads the editor's HTML) once a change of the document has painted and the edits have paused
 * (QUIET_MS, at least every MAX_WAIT_MS while they go on), a run of keystrokes written once: serializing a long post
 * and re-rendering the form that watches it are not paid per keystroke, nor before it shows. Written at once when the
 * editor loses the focus (a click on Save or Preview, Tab to another field), when the page is hidden, and when the
 * editor goes (the HTML view opens), so whatever reads the form then reads what is on screen.
 */
export function useWriteAfterPaint(editor: Editor, write: () => void) {
  const latest = useRef(write);
  useEffect(() => {
    latest.current = write;
  });
  useLayoutEffect(() => {
    let pending = false;
    /** When the first edit not written yet was made. */
    let since = 0;
    let frame = 0;
    let timer = 0;
    const flush = () => {
      cancelAnimationFrame(frame);
      window.clearTimeout(timer);
      if (!pending) return;
      pending = false;
      latest.current();
    };
    const onUpdate = () => {
      const now = performance.now();
      if (!pending) {
        pending = true;
        since = now;
      }
      cancelAnimationFrame(frame);
      window.clearTimeout(timer);
      const wait = Math.max(0, Math.min(QUIET_MS, since + MAX_WAIT_MS - now));
      frame = requestAnimationFrame(() => {
        timer = window.setTimeout(flush, wait);
      });
    };
    const onHidden = () => {
      if (document.visibilityState === 'hidden') flush();
    };
    editor.on('update', onUpdate);
    editor.on('blur', flush);
    document.addEventListener('visibilitychange', onHidden);
    window.addEventListener('pagehide', flush);
    return () => {
      editor.off('update', onUpdate);
      editor.off('blur', flush);
      document.removeEventListener('visibilitychange', onHidden);
      window.removeEventListener('pagehide', flush);
      flush();
    };
  }, [editor]);
}

/** When the page is idle: `requestIdleCallback`, or a timeout where there is none (Safari). */
function whenIdle(run: () => void): () => void {
  if (typeof window.requestIdleCallback === 'function') {
    const id = window.requestIdleCallback(run, { timeout: 2000 });
    return () => window.cancelIdleCallback(id);
  }
  const id = window.setTimeout(run, 200);
  return () => window.clearTimeout(id);
}

/**
 * Work the first edit would otherwise pay, done once when the page is idle after the editor is made: `prepare`, then
 * the link detector's tables (the autolink plugin builds them on the first space or Enter typed, tens of ms on a
 * phone): a space typed at the start of the document is applied to a copy of the state, which is then dropped (the
 * editor, its history and the form see nothing).
 */
export function useWarmUp(editor: Editor, prepare: () => void) {
  const latest = useRef(prepare);
  useEffect(() => {
    latest.current = prepare;
  });
  useEffect(
    () =>
      whenIdle(() => {
        if (editor.isDestroyed) return;
        latest.current();
        try {
          const { state } = editor;
          const at = Selection.atStart(state.doc);
          if (at instanceof TextSelection) state.apply(state.tr.insertText('warm ', at.from));
        } catch {
          // Only a head start: the first edit builds the tables if this could not.
        }
      }),
    [editor],
  );
}
