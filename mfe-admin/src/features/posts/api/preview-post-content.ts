import { adminPostPreviewSchema, type AdminPostPreview } from '@site/contracts/admin';
import { adminRequest } from '../../../lib/admin-request';

/** POST /api/admin/posts/preview: the content as the server's sanitizer would store it (nothing is stored). */
export function previewPostContent(content: string): Promise<AdminPostPreview> {
  return adminRequest('/api/admin/posts/preview', adminPostPreviewSchema, { method: 'POST', json: { content } });
}
