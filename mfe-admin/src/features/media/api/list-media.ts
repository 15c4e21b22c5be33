import { mediaListSchema, type MediaList } from '@site/contracts/media';
import { adminRequest } from '../../../lib/admin-request';

/** GET /api/admin/media: the library, newest first, with the posts using each image. */
export function listMedia(signal?: AbortSignal): Promise<MediaList> {
  return adminRequest('/api/admin/media', mediaListSchema, { signal });
}
