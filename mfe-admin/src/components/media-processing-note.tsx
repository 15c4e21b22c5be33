import type { MediaItem } from '@site/contracts/media';
import { isMediaGone, useFollowedMediaQuery } from '../lib/get-media';

/**
 * Under an upload: while its sizes are being made, says so (the image can be used at once) and follows it; then says
 * it is ready, or why its sizes could not be made.
 */
export function MediaProcessingNote({ item }: { item: MediaItem }) {
  const followed = useFollowedMediaQuery(item);
  const media = followed.data ?? item;
  if (isMediaGone(followed.error)) return null;
  if (media.state === 'failed') {
    return (
      <p role="alert" className="w-full font-medium text-danger">
        Its sizes could not be made. {media.error ?? 'The image could not be processed.'}
      </p>
    );
  }
  return (
    <p role="status" className="flex w-full items-center gap-2 text-fg">
      {media.state === 'processing' ? (
        <>
          <svg aria-hidden="true" viewBox="0 0 24 24" className="h-4 w-4 shrink-0 animate-spin text-muted-fg motion-reduce:animate-none" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round">
            <path d="M12 3a9 9 0 1 0 9 9" />
          </svg>
          Making the image's sizes… Posts can use it now.
        </>
      ) : (
        <>
          <svg aria-hidden="true" viewBox="0 0 24 24" className="h-4 w-4 shrink-0 text-accent" fill="none" stroke="currentColor" strokeWidth="2.5" strokeLinecap="round" strokeLinejoin="round">
            <path d="m5 12.5 4.5 4.5L19 7.5" />
          </svg>
          Ready: every size is made.
        </>
      )}
    </p>
  );
}
