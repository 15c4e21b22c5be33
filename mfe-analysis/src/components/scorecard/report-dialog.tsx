import { lazy, startTransition, Suspense, useState, type ReactNode } from 'react';
import { Button, type ButtonVariant } from '@site/ui';

const ReportDialogImpl = lazy(() => import('./report-dialog-impl'));
const preload = () => void import('./report-dialog-impl');

/**
 * A modal opened by a button (Radix Dialog: focus trapped, Escape closes, focus returns to the opener). The dialog
 * code and its body load on first use (prefetched on hover or focus), so they cost nothing until a reader asks.
 */
export function ReportDialog({
  title,
  description,
  triggerLabel,
  triggerVariant = 'primary',
  onOpen,
  children,
}: {
  title: string;
  description: string;
  triggerLabel: string;
  triggerVariant?: ButtonVariant;
  onOpen?: () => void;
  children: ReactNode;
}) {
  const [activated, setActivated] = useState(false);
  const plain = (
    <Button
      variant={triggerVariant}
      className="print:hidden"
      aria-haspopup="dialog"
      onPointerEnter={preload}
      onFocus={preload}
      onClick={() => {
        // A transition: the dialog (Radix's focus trap and scroll lock, the report) renders without holding the paint
        // that answers the click (the modal's INP on a phone), and the button stays as it is until the dialog is there.
        startTransition(() => setActivated(true));
        onOpen?.();
      }}
    >
      {triggerLabel}
    </Button>
  );
  if (!activated) return plain;
  return (
    <Suspense fallback={plain}>
      <ReportDialogImpl title={title} description={description} triggerLabel={triggerLabel} triggerVariant={triggerVariant} onOpen={onOpen}>
        {children}
      </ReportDialogImpl>
    </Suspense>
  );
}
