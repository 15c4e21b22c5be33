import { useQuery } from '@tanstack/react-query';
import { mediaItemSchema, type MediaItem } from '@site/contracts/media';
import { ApiError } from '@site/ui';
import { adminRequest } from './admin-request';

/** How often an image whose sizes are being made is asked again. */
export const MEDIA_POLL_MS = 2000;

export const mediaItemKey = (id: string) => ['media', 'item', id] as const;

/** GET /api/admin/media/:id: one image, to follow its processing (`state`). */
export function getMedia(id: string, signal?: AbortSignal): Promise<MediaItem> {
  return adminRequest(`/api/admin/media/${encodeURIComponent(id)}`, mediaItemSchema, { signal });
}

/** The image was deleted meanwhile (in another tab): there is nothing left to follow. */
export const isMediaGone = (error: unknown) => error instanceof ApiError && error.status === 404;

/**
 * Follows `item` (null: nothing) while its sizes are being made: asked again every 2 s (not in a background tab)
 * until it is ready or failed, then left alone. The upload's note and the library's card of the same image share
 * the one request. Forgotten as soon as nobody follows it, so an image processed again starts from its new answer.
 */
export function useFollowedMediaQuery(item: MediaItem | null) {
  return useQuery({
    queryKey: item ? mediaItemKey(item.id) : ['media', 'item', null],
    queryFn: ({ signal }) => getMedia(item!.id, signal),
    enabled: item !== null,
    initialData: item ?? undefined,
    staleTime: MEDIA_POLL_MS,
    gcTime: 0,
    refetchInterval: (query) => (query.state.data?.state === 'processing' && !isMediaGone(query.state.error) ? MEDIA_POLL_MS : false),
  });
}
