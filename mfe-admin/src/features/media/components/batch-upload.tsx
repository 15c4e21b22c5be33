import { useEffect, useId, useRef, useState, type DragEvent } from 'react';
import { Button, cn } from '@site/ui';
import { MEDIA_ACCEPT } from '@site/contracts/media-rules';
import { precheckImage } from '../../../components/image-drop-zone';
import { useBatchUpload, type MediaUpload } from '../hooks/use-batch-upload';
import { UploadRow } from './upload-row';

const isReady = (upload: MediaUpload) => upload.status === 'done' && upload.result?.state === 'ready';
const hasFailed = (upload: MediaUpload) => upload.status === 'failed' || (upload.status === 'done' && upload.result?.state === 'failed');

/** "12 of 30 ready", and how many failed: what the live region reads out as the batch moves on. */
export function batchSummary(uploads: readonly MediaUpload[]): string {
  const ready = uploads.filter(isReady).length;
  const failed = uploads.filter(hasFailed).length;
  return `${ready} of ${uploads.length} ready${failed > 0 ? `, ${failed} failed` : ''}`;
}

/** The clock, read every half second while `active` (a row counts down to its retry), else when it last was. */
function useClock(active: boolean): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!active) return;
    const timer = setInterval(() => setNow(Date.now()), 500);
    return () => clearInterval(timer);
  }, [active]);
  return now;
}

/**
 * Drop any number of images here, or choose them with the button (keyboard: Tab to the button, Enter): they are
 * uploaded two at a time, each with a line saying where it is, waiting out the server's Retry-After while its image
 * queue is full, and followed until its sizes are made. A polite live region counts the ready ones. A file that fails
 * stays listed with the reason and Retry.
 */
export function BatchUpload() {
  const input = useRef<HTMLInputElement>(null);
  const choose = useRef<HTMLButtonElement>(null);
  const hintId = useId();
  const listId = useId();
  const [over, setOver] = useState(false);
  const { queue, uploads } = useBatchUpload();
  const retrying = uploads.some((u) => u.status === 'retrying');
  const now = useClock(retrying);

  const add = (files: FileList | null | undefined) => {
    if (files && files.length > 0) queue.add([...files], precheckImage);
    if (input.current) input.current.value = '';
  };
  const onDrop = (e: DragEvent) => {
    e.preventDefault();
    setOver(false);
    add(e.dataTransfer.files);
  };
  const finished = uploads.filter(isReady).length;

  return (
    <div className="space-y-3">
      <div
        className={cn(
          'flex flex-wrap items-center gap-3 rounded-lg border-2 border-dashed p-4 text-sm transition-colors',
          over ? 'border-primary bg-primary-soft' : 'border-border',
        )}
        onDragOver={(e) => {
          e.preventDefault();
          setOver(true);
        }}
        onDragLeave={() => setOver(false)}
        onDrop={onDrop}
      >
        <input ref={input} type="file" multiple accept={MEDIA_ACCEPT} className="sr-only" tabIndex={-1} aria-hidden="true" onChange={(e) => add(e.target.files)} />
        <Button ref={choose} size="sm" variant="secondary" onClick={() => input.current?.click()} aria-describedby={hintId}>
          Choose images
        </Button>
        <span id={hintId} className="text-muted-fg">
          or drop images here, as many as you like. JPEG, PNG, WebP, AVIF or GIF, up to 10 MB each.
        </span>
      </div>
      <div className={cn('flex flex-wrap items-center justify-between gap-2', uploads.length === 0 && 'sr-only')}>
        <p role="status" className="text-sm font-semibold text-fg">
          {uploads.length > 0 ? batchSummary(uploads) : ''}
        </p>
        {finished > 0 && (
          <Button
            size="sm"
            variant="ghost"
            className="py-1"
            onClick={() => {
              queue.remove(isReady);
              // The button leaves with the finished files: the focus goes back to where new ones are chosen.
              choose.current?.focus();
            }}
            aria-controls={listId}
          >
            Clear finished
          </Button>
        )}
      </div>
      {uploads.length > 0 && (
        <ul id={listId} aria-label="Uploads" className="divide-y divide-border rounded-lg border border-border px-3">
          {uploads.map((upload) => (
            <UploadRow key={upload.id} upload={upload} queue={queue} now={now} />
          ))}
        </ul>
      )}
    </div>
  );
}
