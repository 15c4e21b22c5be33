import { createContext, useContext, useId, useLayoutEffect, useRef, type ReactNode } from 'react';
import { createPortal } from 'react-dom';
import { buttonClasses, cn } from '@site/ui';

const CloseContext = createContext<() => void>(() => {});

/**
 * The frame of the editor's dialogs (link, image): the browser's own modal `<dialog>` (the rest of the page inert, the
 * focus moved in), titled and described. Escape, Cancel and a click beside it close it. On close the focus goes back
 * to the text (`onClosed`), not to the toolbar button, so typing carries on where it was.
 *
 * Opening answers in two steps: the click paints a veil over the page at once (the backdrop's colour), and the dialog
 * opens as modal in the next task, after that paint. `showModal()` restyles the whole page to make it inert, which is
 * too slow for the click's own frame on a phone (docs/decisions.md, "The post editor is Tiptap").
 */
export function EditorDialog({
  open,
  onClose,
  onClosed,
  title,
  description,
  wide,
  children,
}: {
  open: boolean;
  onClose: () => void;
  onClosed: () => void;
  title: string;
  description: ReactNode;
  wide?: boolean;
  children: ReactNode;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const descriptionId = useId();
  const latest = useRef({ onClose, onClosed });
  useLayoutEffect(() => {
    latest.current = { onClose, onClosed };
  });

  // Opened and closed as `open` says, once its content is in place (the browser focuses its first field on opening):
  // closed at once, opened after the veil has painted (a frame, then a task).
  useLayoutEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (!open) {
      if (dialog.open) dialog.close();
      return;
    }
    if (dialog.open) return;
    let timer = 0;
    const frame = requestAnimationFrame(() => {
      timer = window.setTimeout(() => {
        if (!dialog.open) dialog.showModal();
      });
    });
    return () => {
      cancelAnimationFrame(frame);
      window.clearTimeout(timer);
    };
  }, [open]);

  // However it closes (Escape, Cancel, a choice made), the owner's state follows and the text takes the focus back.
  useLayoutEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    const onCloseEvent = () => {
      latest.current.onClose();
      latest.current.onClosed();
    };
    dialog.addEventListener('close', onCloseEvent);
    return () => {
      dialog.removeEventListener('close', onCloseEvent);
      if (dialog.open) dialog.close();
    };
  }, []);

  // In <body>, not inside the post's form: the dialog's own form must not be a form within a form.
  return createPortal(
    <>
      <dialog
        ref={ref}
        aria-labelledby={titleId}
        aria-describedby={descriptionId}
        // A press on the backdrop lands on the dialog itself (its content fills it): that is a click beside the form.
        onMouseDown={(event) => {
          if (event.target === event.currentTarget) onClose();
        }}
        className={cn(
          'peer m-auto max-h-[calc(100dvh-2rem)] w-[calc(100vw-2rem)] overflow-hidden rounded-2xl border border-border bg-surface p-0 text-fg shadow-lg backdrop:bg-slate-950/65 focus:outline-none',
          wide ? 'max-w-3xl' : 'max-w-md',
        )}
      >
        {open && (
          <CloseContext.Provider value={onClose}>
            <div className="max-h-[calc(100dvh-2rem)] overflow-y-auto overscroll-contain p-5 sm:p-6">
              <h2 id={titleId} className="text-lg font-bold">
                {title}
              </h2>
              <p id={descriptionId} className="mt-1.5 text-sm text-muted-fg">
                {description}
              </p>
              {children}
            </div>
          </CloseContext.Provider>
        )}
      </dialog>
      {/* The veil, until the dialog itself is open (then its backdrop, the same colour, takes over: `peer-open`, the
          veil being rendered after its dialog). A press on it is a press beside the dialog. */}
      {open && (
        <div
          aria-hidden="true"
          onMouseDown={(event) => {
            event.preventDefault();
            onClose();
          }}
          className="fixed inset-0 z-50 bg-slate-950/65 peer-open:hidden"
        />
      )}
    </>,
    document.body,
  );
}

/** The dialog's Cancel button: closes it, changing nothing. */
export function EditorDialogCancel() {
  const close = useContext(CloseContext);
  return (
    <button type="button" onClick={close} className={buttonClasses('secondary')}>
      Cancel
    </button>
  );
}
