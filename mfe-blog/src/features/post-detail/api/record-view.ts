import { requestJson } from '@site/ui';
import { viewsResultSchema } from '@site/contracts/posts';

/** POST /api/posts/:slug/views: counts one page view and answers the new total. */
export async function recordView(slug: string): Promise<number> {
  const { views } = await requestJson(`/api/posts/${encodeURIComponent(slug)}/views`, viewsResultSchema, { method: 'POST' });
  return views;
}
