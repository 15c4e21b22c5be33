import { useQuery } from '@tanstack/react-query';
import { adminPostPreviewSchema, type AdminPostPreview } from '@site/contracts/admin';
import { adminRequest } from '../../../lib/admin-request';
import { postKeys } from '../lib/post-queries';

/** POST /api/admin/posts/preview: the content as the server's sanitizer would store it (nothing is stored). */
export function previewPostContent(content: string, signal?: AbortSignal): Promise<AdminPostPreview> {
  return adminRequest('/api/admin/posts/preview', adminPostPreviewSchema, { method: 'POST', json: { content }, signal });
}

/**
 * The sanitized content for the Preview: a read (the POST stores nothing), so it is a query keyed by the content,
 * asked once per version of the text shown.
 */
export function usePostPreviewQuery(content: string) {
  return useQuery({ queryKey: postKeys.preview(content), queryFn: ({ signal }) => previewPostContent(content, signal), staleTime: Infinity, gcTime: 60_000 });
}
