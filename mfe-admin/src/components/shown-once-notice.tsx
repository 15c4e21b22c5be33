import { useEffect, useId, useRef, type ReactNode } from 'react';
import { Button } from '@site/ui';
import { CopyBlock } from './copy-block';

/**
 * A credential the server shows this once (a webhook's signing secret, a deploy token): what to do with it, the value
 * with a Copy button, and a button to put it away. With `focusOnShow` the notice takes the focus when it appears, so
 * a keyboard or screen-reader user lands on the one thing they must do next.
 */
export function ShownOnceNotice({
  title,
  hint,
  label,
  value,
  doneLabel = 'I have copied it',
  onDone,
  focusOnShow = false,
}: {
  title: string;
  hint?: ReactNode;
  /** The copy block's caption (and its Copy button's name: "Copy {label}"). */
  label: string;
  value: string;
  doneLabel?: string;
  onDone: () => void;
  focusOnShow?: boolean;
}) {
  const ref = useRef<HTMLDivElement>(null);
  const titleId = useId();
  useEffect(() => {
    if (focusOnShow) ref.current?.focus();
    // A new value is a new notice: it takes the focus again.
  }, [focusOnShow, value]);
  return (
    <div
      ref={ref}
      role="status"
      aria-labelledby={titleId}
      tabIndex={focusOnShow ? -1 : undefined}
      className="space-y-3 rounded-xl border border-warning/50 bg-warning-soft p-4 text-sm text-fg focus-visible:outline-2 focus-visible:outline-offset-2"
    >
      <p id={titleId} className="font-semibold">
        {title}
      </p>
      {hint && <p className="text-muted-fg">{hint}</p>}
      <CopyBlock label={label} code={value} />
      <Button size="sm" variant="secondary" onClick={onDone}>
        {doneLabel}
      </Button>
    </div>
  );
}
