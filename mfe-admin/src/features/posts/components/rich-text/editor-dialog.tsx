import * as Dialog from '@radix-ui/react-dialog';
import type { ReactNode } from 'react';
import { cn } from '@site/ui';

/**
 * The frame of the editor's dialogs (link, image): modal, titled and described, Escape and Cancel close it. On close
 * the focus goes back to the text (`onClosed`), not to the toolbar button, so typing carries on where it was.
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
  return (
    <Dialog.Root open={open} onOpenChange={(next) => !next && onClose()}>
      <Dialog.Portal>
        {/* No backdrop blur (the other dialogs have one): blurring a long post's page cost a phone's frame on opening. */}
        <Dialog.Overlay className="fixed inset-0 z-50 bg-slate-950/65" />
        <Dialog.Content
          className={cn(
            'fixed left-1/2 top-1/2 z-50 flex max-h-[calc(100dvh-2rem)] w-[calc(100vw-2rem)] -translate-x-1/2 -translate-y-1/2 flex-col overflow-y-auto rounded-2xl border border-border bg-surface p-5 text-fg shadow-2xl focus:outline-none sm:p-6',
            wide ? 'max-w-3xl' : 'max-w-md',
          )}
          onCloseAutoFocus={(event) => {
            event.preventDefault();
            onClosed();
          }}
        >
          <Dialog.Title className="text-lg font-bold">{title}</Dialog.Title>
          <Dialog.Description className="mt-1.5 text-sm text-muted-fg">{description}</Dialog.Description>
          {children}
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
