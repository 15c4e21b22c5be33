import { useInfiniteQuery } from '@tanstack/react-query';
import { mediaListSchema, type MediaList } from '@site/contracts/media';
import { adminRequest } from '../../../lib/admin-request';

export const mediaLibraryKey = ['media', 'library'] as const;

/** GET /api/admin/media: one page of the library, newest first, with the posts using each image. */
export function listMedia(cursor: string | null, signal?: AbortSignal): Promise<MediaList> {
  return adminRequest(`/api/admin/media${cursor ? `?cursor=${encodeURIComponent(cursor)}` : ''}`, mediaListSchema, { signal });
}

/** The library a page at a time (the server's default page size): each page's `nextCursor` reads the next, older one. */
export function useMediaLibraryQuery() {
  return useInfiniteQuery({
    queryKey: mediaLibraryKey,
    queryFn: ({ pageParam, signal }) => listMedia(pageParam, signal),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.nextCursor,
  });
}
