import * as AlertDialog from '@radix-ui/react-alert-dialog';
import type { ReactNode } from 'react';
import { buttonClasses } from '@site/ui';

/**
 * A confirmation in Radix's AlertDialog: focus moves into it (Cancel first), Escape cancels, screen readers hear
 * the title and the question. `onConfirm` runs while the dialog stays open with a busy button.
 */
export function ConfirmDialog({
  open,
  onOpenChange,
  title,
  description,
  children,
  confirmLabel,
  busyLabel,
  busy = false,
  onConfirm,
  onCloseAutoFocus,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: string;
  /** The question, exactly as the spec words it. */
  description: string;
  children?: ReactNode;
  confirmLabel: string;
  busyLabel: string;
  busy?: boolean;
  onConfirm: () => void;
  /** Where the focus goes when the dialog closes (by default back to what opened it); `event.preventDefault()` to move it. */
  onCloseAutoFocus?: (event: Event) => void;
}) {
  return (
    <AlertDialog.Root open={open} onOpenChange={(next) => !busy && onOpenChange(next)}>
      <AlertDialog.Portal>
        <AlertDialog.Overlay className="fixed inset-0 z-50 bg-slate-950/60 backdrop-blur-[2px]" />
        <AlertDialog.Content
          onCloseAutoFocus={onCloseAutoFocus}
          className="fixed left-1/2 top-1/2 z-50 w-[calc(100vw-2rem)] max-w-md -translate-x-1/2 -translate-y-1/2 rounded-2xl border border-border bg-surface p-6 text-fg shadow-2xl focus:outline-none">
          <AlertDialog.Title className="text-lg font-bold">{title}</AlertDialog.Title>
          <AlertDialog.Description className="mt-2 text-muted-fg">{description}</AlertDialog.Description>
          {children}
          <div className="mt-6 flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
            <AlertDialog.Cancel className={buttonClasses('secondary')} disabled={busy}>
              Cancel
            </AlertDialog.Cancel>
            <button
              type="button"
              className={buttonClasses('danger')}
              disabled={busy}
              aria-busy={busy || undefined}
              onClick={(e) => {
                e.preventDefault();
                onConfirm();
              }}
            >
              {busy ? busyLabel : confirmLabel}
            </button>
          </div>
        </AlertDialog.Content>
      </AlertDialog.Portal>
    </AlertDialog.Root>
  );
}
