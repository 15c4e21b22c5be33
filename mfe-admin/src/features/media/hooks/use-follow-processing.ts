import { useEffect } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import type { MediaItem } from '@site/contracts/media';
import { isMediaGone, useFollowedMediaQuery } from '../../../lib/get-media';
import { removeFromLibrary, replaceInLibrary } from '../lib/library-cache';

/**
 * While a library image is processing, asks for it every 2 s and puts it on its page once it is ready or failed
 * (or takes it off when it was deleted meanwhile); the asking stops with the state.
 */
export function useFollowProcessing(media: MediaItem) {
  const client = useQueryClient();
  const followed = useFollowedMediaQuery(media.state === 'processing' ? media : null);
  const next = followed.data;
  const gone = isMediaGone(followed.error);
  useEffect(() => {
    if (gone) removeFromLibrary(client, media.id);
    else if (next && next.state !== 'processing') replaceInLibrary(client, next);
  }, [client, media.id, next, gone]);
}
