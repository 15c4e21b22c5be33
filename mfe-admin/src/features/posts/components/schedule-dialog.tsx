import * as Dialog from '@radix-ui/react-dialog';
import { useId, useRef, useState, type FormEvent, type ReactNode } from 'react';
import { BUSINESS_TIME_ZONE_LABEL, businessLocalToIso, formatInBusinessZone } from '@site/contracts/post-schedule';
import { Button, buttonClasses } from '@site/ui';
import { controlClass } from '../../../components/form-field';
import { browserZoneDiffers, initialScheduleInput, readScheduleInput, scheduleInputBounds } from '../lib/schedule-input';

export const PUBLISH_ON_LABEL = `Publish on (${BUSINESS_TIME_ZONE_LABEL})`;

/**
 * Picks when a post is published: a date and time read in the business's zone (named in the label), checked with
 * the API's own rule before sending. `onSchedule` sends it and answers the message to show next to the field, or
 * nothing when it is done (the caller then closes the dialog).
 */
export function ScheduleDialog({
  open,
  onOpenChange,
  postTitle,
  publishAt,
  note,
  onSchedule,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  postTitle: string;
  /** The post's current schedule, if it has one: the picker starts there. */
  publishAt: string | null;
  /** Said above the field, e.g. that unsaved changes are saved first. */
  note?: ReactNode;
  onSchedule: (publishAt: string) => Promise<string | undefined>;
}) {
  return (
    <Dialog.Root open={open} onOpenChange={onOpenChange}>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-50 bg-slate-950/60 backdrop-blur-[2px]" />
        <Dialog.Content
          className="fixed left-1/2 top-1/2 z-50 max-h-[calc(100dvh-2rem)] w-[calc(100vw-2rem)] max-w-md -translate-x-1/2 -translate-y-1/2 overflow-y-auto rounded-2xl border border-border bg-surface p-6 text-fg shadow-2xl focus:outline-none"
          // What the close led to may have taken focus already (the conflict notice of a 409): the dialog does not take it
          // back to the button that opened it. Which comes first, the notice's frame or Radix's return, varies by runtime.
          onCloseAutoFocus={(event) => {
            if (document.activeElement && document.activeElement !== document.body) event.preventDefault();
          }}
        >
          {/* Mounted only while open: every opening starts from the post's time and no old error. */}
          {open && <ScheduleForm postTitle={postTitle} publishAt={publishAt} note={note} onSchedule={onSchedule} />}
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}

function ScheduleForm({
  postTitle,
  publishAt,
  note,
  onSchedule,
}: {
  postTitle: string;
  publishAt: string | null;
  note?: ReactNode;
  onSchedule: (publishAt: string) => Promise<string | undefined>;
}) {
  const id = useId();
  const [now] = useState(() => new Date());
  const [value, setValue] = useState(() => initialScheduleInput(publishAt, now));
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const inputRef = useRef<HTMLInputElement>(null);
  const bounds = scheduleInputBounds(now);
  const iso = businessLocalToIso(value);
  const errorId = `${id}-error`;
  const hintId = `${id}-hint`;

  async function onSubmit(e: FormEvent) {
    e.preventDefault();
    if (busy) return;
    const read = readScheduleInput(value, new Date());
    if ('problem' in read) {
      setError(read.problem);
      inputRef.current?.focus();
      return;
    }
    setBusy(true);
    setError(null);
    let problem: string | undefined;
    try {
      problem = await onSchedule(read.publishAt);
    } finally {
      setBusy(false);
    }
    if (problem) {
      setError(problem);
      inputRef.current?.focus();
    }
  }

  return (
    <form noValidate onSubmit={onSubmit}>
      <Dialog.Title className="text-lg font-bold">Schedule post</Dialog.Title>
      <Dialog.Description className="mt-2 text-muted-fg">
        Choose when <span className="font-semibold text-fg">“{postTitle}”</span> goes live on the blog. Until then it stays hidden from readers.
      </Dialog.Description>
      {note && <div className="mt-3 rounded-lg bg-primary-soft px-3 py-2 text-sm text-primary-soft-fg">{note}</div>}
      <div className="mt-5">
        <label htmlFor={id} className="text-sm font-semibold text-fg">
          {PUBLISH_ON_LABEL}
        </label>
        <input
          ref={inputRef}
          id={id}
          type="datetime-local"
          required
          aria-required
          value={value}
          min={bounds.min}
          max={bounds.max}
          step={60}
          onChange={(e) => {
            setValue(e.target.value);
            setError(null);
          }}
          aria-invalid={error ? true : undefined}
          aria-describedby={[error ? errorId : '', hintId].filter(Boolean).join(' ')}
          className={controlClass}
        />
        {error && (
          <p id={errorId} role="alert" className="mt-1.5 text-sm font-medium text-danger">
            {error}
          </p>
        )}
        <p id={hintId} className="mt-1.5 text-xs text-muted-fg">
          The time is read in {BUSINESS_TIME_ZONE_LABEL}, at most a year ahead.
          {iso && !error && (
            <>
              {' '}
              Publishes {formatInBusinessZone(iso)}
              {browserZoneDiffers() && `, which is ${new Date(iso).toLocaleString('en-US', { dateStyle: 'medium', timeStyle: 'short' })} where you are`}.
            </>
          )}
        </p>
      </div>
      <div className="mt-6 flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
        <Dialog.Close className={buttonClasses('secondary')} disabled={busy}>
          Cancel
        </Dialog.Close>
        <Button type="submit" disabled={busy} aria-busy={busy || undefined}>
          {busy ? 'Scheduling…' : 'Schedule'}
        </Button>
      </div>
    </form>
  );
}
