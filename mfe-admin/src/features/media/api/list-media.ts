import { useQuery } from '@tanstack/react-query';
import { mediaListSchema, type MediaList } from '@site/contracts/media';
import { adminRequest } from '../../../lib/admin-request';

export const mediaKey = ['media'] as const;

/** GET /api/admin/media: the library, newest first, with the posts using each image. */
export function listMedia(signal?: AbortSignal): Promise<MediaList> {
  return adminRequest('/api/admin/media', mediaListSchema, { signal });
}

export function useMediaQuery() {
  return useQuery({ queryKey: mediaKey, queryFn: ({ signal }) => listMedia(signal) });
}
