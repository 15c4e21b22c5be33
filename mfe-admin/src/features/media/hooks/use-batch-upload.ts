import { useEffect, useSyncExternalStore } from 'react';
import { useQueryClient, type QueryClient } from '@tanstack/react-query';
import type { MediaItem } from '@site/contracts/media';
import { errorMessage } from '../../../lib/admin-request';
import { uploadMedia } from '../../../lib/upload-media';
import { prependToLibrary } from '../lib/library-cache';
import { createUploadQueue, type UploadEntry, type UploadQueue } from '../lib/upload-queue';

export type MediaUpload = UploadEntry<File, MediaItem>;
export type MediaUploadQueue = UploadQueue<File, MediaItem>;

/**
 * One queue per panel (its query client): it outlives the Media screen, so leaving it mid-batch to look at a post loses
 * nothing, and the list is there again on the way back.
 */
const queues = new WeakMap<QueryClient, MediaUploadQueue>();

function queueOf(client: QueryClient): MediaUploadQueue {
  let queue = queues.get(client);
  if (!queue) {
    queue = createUploadQueue<File, MediaItem>({
      send: async (file, onProgress) => {
        const media = await uploadMedia(file, { onProgress });
        // In the library at once, first, while its sizes are made.
        prependToLibrary(client, media);
        return media;
      },
      failureMessage: (error) => errorMessage(error, 'The upload failed. Try again.'),
    });
    queues.set(client, queue);
  }
  return queue;
}

/** Whether a file of the batch is still on its way to the server. */
export const inFlight = (entry: MediaUpload) => entry.status === 'waiting' || entry.status === 'uploading' || entry.status === 'retrying';

/** The panel's upload queue and its list; closing the tab while files are on their way asks first. */
export function useBatchUpload(): { queue: MediaUploadQueue; uploads: readonly MediaUpload[] } {
  const queue = queueOf(useQueryClient());
  const uploads = useSyncExternalStore(queue.subscribe, queue.snapshot);
  const pending = uploads.some(inFlight);
  useEffect(() => {
    if (!pending) return;
    const ask = (event: BeforeUnloadEvent) => event.preventDefault();
    window.addEventListener('beforeunload', ask);
    return () => window.removeEventListener('beforeunload', ask);
  }, [pending]);
  return { queue, uploads };
}
