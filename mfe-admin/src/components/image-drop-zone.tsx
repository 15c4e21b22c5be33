import { useId, useRef, useState, type DragEvent } from 'react';
import { MEDIA_ACCEPT, MEDIA_FORMATS, MEDIA_MAX_BYTES } from '@site/contracts/media-rules';
import type { MediaItem } from '@site/contracts/media';
import { Button, cn } from '@site/ui';
import { errorMessage } from '../lib/admin-request';
import { uploadMedia } from '../lib/upload-media';
import { MediaProcessingNote } from './media-processing-note';

const ACCEPTED_MIMES: readonly string[] = Object.values(MEDIA_FORMATS).map((f) => f.mime);

/** What the browser can tell before sending (the server checks the bytes again). */
export function precheckImage(file: File): string | null {
  if (file.type === 'image/svg+xml' || /\.svgz?$/i.test(file.name)) return 'SVG images are not accepted: they can carry scripts. Export the image as PNG or WebP.';
  if (file.type && !ACCEPTED_MIMES.includes(file.type)) return 'Only JPEG, PNG, WebP, AVIF and GIF images are accepted.';
  if (file.size > MEDIA_MAX_BYTES) return 'The image is larger than 10 MB.';
  return null;
}

/**
 * Drop an image here or choose one with the button (keyboard: Tab to the button, Enter): uploads it to the media
 * library with a progress bar, and says what went wrong in words. `onUploaded` gets the stored image at once (usable
 * while its sizes are made); a note under the zone then follows those sizes to ready, or says why they failed.
 */
export function ImageDropZone({ label, onUploaded, className }: { label: string; onUploaded: (media: MediaItem) => void; className?: string }) {
  const input = useRef<HTMLInputElement>(null);
  const statusId = useId();
  const [over, setOver] = useState(false);
  const [progress, setProgress] = useState<number | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [uploaded, setUploaded] = useState<MediaItem | null>(null);
  const busy = progress !== null;

  async function send(file: File | undefined) {
    if (!file || busy) return;
    const refused = precheckImage(file);
    setError(refused);
    setUploaded(null);
    if (refused) return;
    setProgress(0);
    try {
      const media = await uploadMedia(file, { onProgress: setProgress });
      onUploaded(media);
      setUploaded(media);
    } catch (err) {
      setError(errorMessage(err, 'The upload failed. Check the connection and try again.'));
    } finally {
      setProgress(null);
      if (input.current) input.current.value = '';
    }
  }

  const onDrop = (e: DragEvent) => {
    e.preventDefault();
    setOver(false);
    void send(e.dataTransfer.files[0]);
  };

  return (
    <div
      className={cn(
        'mt-2 flex flex-wrap items-center gap-3 rounded-lg border border-dashed p-3 text-sm transition-colors',
        over ? 'border-primary bg-primary-soft' : 'border-border',
        className,
      )}
      onDragOver={(e) => {
        e.preventDefault();
        setOver(true);
      }}
      onDragLeave={() => setOver(false)}
      onDrop={onDrop}
      aria-busy={busy || undefined}
    >
      <input ref={input} type="file" accept={MEDIA_ACCEPT} className="sr-only" tabIndex={-1} aria-hidden="true" onChange={(e) => void send(e.target.files?.[0])} />
      <Button size="sm" variant="secondary" disabled={busy} onClick={() => input.current?.click()} aria-describedby={statusId}>
        {busy ? 'Uploading…' : label}
      </Button>
      <span id={statusId} className="text-muted-fg">
        {busy ? (
          <span className="inline-flex items-center gap-2">
            <progress max={1} value={progress} aria-label={`${label}: upload progress`} className="h-2 w-28" />
            {Math.round((progress ?? 0) * 100)}%
          </span>
        ) : (
          'or drop an image here. JPEG, PNG, WebP, AVIF or GIF, up to 10 MB.'
        )}
      </span>
      {uploaded && <MediaProcessingNote key={uploaded.id} item={uploaded} />}
      {error && (
        <p role="alert" className="w-full font-medium text-danger">
          {error}
        </p>
      )}
    </div>
  );
}
