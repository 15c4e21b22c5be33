import { requestJson } from '@site/ui';
import { viewsResultCheck } from '@site/contracts/posts-rules';

/** POST /api/posts/:slug/views: counts one page view and answers the new total (checked without loading zod). */
export async function recordView(slug: string): Promise<number> {
  const { views } = await requestJson(`/api/posts/${encodeURIComponent(slug)}/views`, viewsResultCheck, { method: 'POST' });
  return views;
}
