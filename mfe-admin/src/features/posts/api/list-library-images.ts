import { useInfiniteQuery } from '@tanstack/react-query';
import { mediaListSchema, type MediaList } from '@site/contracts/media';
import { adminRequest } from '../../../lib/admin-request';

/**
 * The post editor's own key: the Media screen keeps its pages under ['media', 'library'] and edits them in place as
 * uploads go (features/media/api/list-media.ts, which a feature may not import); the picker reads them afresh.
 */
export const libraryImagesKey = ['media', 'picker'] as const;

/** GET /api/admin/media: one page of the library, newest first (the same request as the Media screen's). */
export function listLibraryImages(cursor: string | null, signal?: AbortSignal): Promise<MediaList> {
  return adminRequest(`/api/admin/media${cursor ? `?cursor=${encodeURIComponent(cursor)}` : ''}`, mediaListSchema, { signal });
}

/** The library a page at a time for the image picker, read each time it opens (staleTime 0). */
export function useLibraryImagesQuery(enabled: boolean) {
  return useInfiniteQuery({
    queryKey: libraryImagesKey,
    queryFn: ({ pageParam, signal }) => listLibraryImages(pageParam, signal),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.nextCursor,
    enabled,
    staleTime: 0,
  });
}
