import { useEffect, useRef } from 'react';
import { Button, cn } from '@site/ui';
import { isMediaGone, useFollowedMediaQuery } from '../../../lib/get-media';
import type { MediaUpload, MediaUploadQueue } from '../hooks/use-batch-upload';

/** What a row says, and in which tone. */
export type RowState = { text: string; tone: 'muted' | 'busy' | 'ready' | 'failed' };

/** The state of one file in words: waiting, uploading N%, waiting to retry in N s, processing, ready, or failed and why. */
export function rowState(upload: MediaUpload, now: number): RowState {
  switch (upload.status) {
    case 'waiting':
      return { text: 'Waiting', tone: 'muted' };
    case 'uploading':
      return { text: upload.progress === null ? 'Uploading' : `Uploading ${Math.floor(upload.progress * 100)}%`, tone: 'busy' };
    case 'retrying': {
      // Never more than the wait itself: `now` may be a little older than the moment the wait began.
      const left = Math.min((upload.retryAt ?? now) - now, upload.retryWaitMs ?? Infinity);
      const seconds = Math.max(1, Math.ceil(left / 1000));
      const why = upload.retryReason === 'busy' ? 'the server is busy with other images' : 'the connection failed';
      return { text: `Waiting to retry in ${seconds} s (${why})`, tone: 'muted' };
    }
    case 'failed':
      return { text: `Failed: ${upload.error ?? 'The upload failed.'}`, tone: 'failed' };
    case 'done': {
      const media = upload.result!;
      if (media.state === 'ready') return { text: 'Ready', tone: 'ready' };
      if (media.state === 'failed') return { text: `Failed: its sizes could not be made. ${media.error ?? 'The image could not be processed.'}`, tone: 'failed' };
      return { text: 'Processing: making its sizes', tone: 'busy' };
    }
  }
}

const TONES: Record<RowState['tone'], string> = {
  muted: 'text-muted-fg',
  busy: 'text-fg',
  ready: 'font-medium text-fg',
  failed: 'font-medium text-danger',
};

function StateIcon({ tone }: { tone: RowState['tone'] }) {
  if (tone === 'ready') {
    return (
      <svg aria-hidden="true" viewBox="0 0 24 24" className="h-4 w-4 shrink-0 text-accent" fill="none" stroke="currentColor" strokeWidth="2.5" strokeLinecap="round" strokeLinejoin="round">
        <path d="m5 12.5 4.5 4.5L19 7.5" />
      </svg>
    );
  }
  if (tone === 'busy') {
    return (
      <svg aria-hidden="true" viewBox="0 0 24 24" className="h-4 w-4 shrink-0 animate-spin text-muted-fg motion-reduce:animate-none" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round">
        <path d="M12 3a9 9 0 1 0 9 9" />
      </svg>
    );
  }
  return null;
}

/**
 * One file of the batch: its name, its state in words (with a progress bar while it uploads), and Retry when it
 * failed. Once stored, the image is followed until its sizes are made (the library card shares the request), and the
 * queue is told, so the summary counts it ready.
 */
export function UploadRow({ upload, queue, now }: { upload: MediaUpload; queue: MediaUploadQueue; now: number }) {
  const row = useRef<HTMLLIElement>(null);
  const stored = upload.status === 'done' ? upload.result : null;
  const followed = useFollowedMediaQuery(stored?.state === 'processing' ? stored : null);
  const latest = followed.data;
  const gone = isMediaGone(followed.error);
  useEffect(() => {
    if (latest && !gone) queue.update(upload.id, latest);
  }, [queue, upload.id, latest, gone]);

  const name = upload.file.name;
  const state = gone ? { text: 'Deleted from the library', tone: 'muted' as const } : rowState(upload, now);
  const canRetry = (upload.status === 'failed' && upload.retryable) || (upload.status === 'done' && upload.result?.state === 'failed');
  return (
    <li
      ref={row}
      tabIndex={-1}
      className="flex flex-wrap items-center gap-x-3 gap-y-1 py-2 text-sm focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-ring"
    >
      <span className="min-w-0 basis-full truncate font-medium text-fg sm:basis-auto sm:flex-1" title={name}>
        {name}
      </span>
      <span className={cn('inline-flex min-w-0 items-center gap-1.5', TONES[state.tone])}>
        <StateIcon tone={state.tone} />
        {state.text}
      </span>
      {upload.status === 'uploading' && upload.progress !== null && (
        <progress max={1} value={upload.progress} aria-label={`${name}: upload progress`} className="h-2 w-24 shrink-0" />
      )}
      {canRetry && (
        <Button
          size="sm"
          variant="secondary"
          className="py-1"
          onClick={() => {
            queue.retry(upload.id);
            // The button goes with the failure: the keyboard focus stays on the file's line, not lost to the page.
            row.current?.focus();
          }}
          aria-label={`Retry ${name}`}
        >
          Retry
        </Button>
      )}
    </li>
  );
}
