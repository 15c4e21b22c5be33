import { Suspense, type ReactNode } from 'react';
import * as Dialog from '@radix-ui/react-dialog';
import { Button, type ButtonVariant } from '@site/ui';

/*
 * The Radix Dialog behind ReportDialog, loaded on first use. It mounts open in place of the plain opener; Radix
 * traps focus, closes on Escape or Close and returns focus to its trigger (the same visible button).
 */
export default function ReportDialogImpl({
  title,
  description,
  triggerLabel,
  triggerVariant,
  onOpen,
  children,
}: {
  title: string;
  description: string;
  triggerLabel: string;
  triggerVariant: ButtonVariant;
  onOpen?: () => void;
  children: ReactNode;
}) {
  return (
    <Dialog.Root defaultOpen onOpenChange={(open) => open && onOpen?.()}>
      <Dialog.Trigger asChild>
        <Button variant={triggerVariant} className="print:hidden">
          {triggerLabel}
        </Button>
      </Dialog.Trigger>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-50 bg-slate-950/60" />
        <Dialog.Content className="fixed inset-x-2 top-4 bottom-4 z-50 mx-auto flex max-w-3xl flex-col rounded-2xl border border-border bg-surface text-fg shadow-2xl sm:inset-x-6 sm:top-10 sm:bottom-10">
          <div className="flex items-start justify-between gap-4 border-b border-border p-4 sm:p-5">
            <div>
              <Dialog.Title className="text-xl font-bold">{title}</Dialog.Title>
              <Dialog.Description className="mt-1 text-sm text-muted-fg">{description}</Dialog.Description>
            </div>
            <Dialog.Close asChild>
              <Button variant="secondary" size="sm">
                Close
              </Button>
            </Dialog.Close>
          </div>
          <div className="min-h-0 flex-1 overflow-y-auto p-4 sm:p-5" tabIndex={0} role="region" aria-label={`${title} content`}>
            <Suspense fallback={<p className="text-sm text-muted-fg" role="status">Loading the report…</p>}>{children}</Suspense>
          </div>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
