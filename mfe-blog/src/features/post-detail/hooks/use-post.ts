import { useQuery } from '@tanstack/react-query';
import { ApiError } from '@site/ui';
import type { Post } from '@site/contracts/posts';
import { getPost } from '../api/get-post';

export const postKey = (slug: string) => ['posts', 'detail', slug] as const;

export type PostView =
  | { kind: 'loading' }
  | { kind: 'ready'; post: Post }
  | { kind: 'not-found' }
  | { kind: 'error'; message: string; retry: () => void };

/** One published post by slug: loading, the post, 'not found' (404), or a failure the reader can retry. */
export function usePost(slug: string, { known404 = false } = {}): PostView {
  // A slug the server has just answered 404 for is not asked again.
  const query = useQuery({ queryKey: postKey(slug), queryFn: ({ signal }) => getPost(slug, signal), enabled: !known404 });
  if (known404 && !query.data) return { kind: 'not-found' };
  // A post already shown stays on screen when a later refresh fails.
  if (query.data) return { kind: 'ready', post: query.data };
  if (query.error instanceof ApiError && query.error.status === 404) return { kind: 'not-found' };
  if (query.error) return { kind: 'error', message: query.error.message || 'Could not load the article', retry: () => void query.refetch() };
  return { kind: 'loading' };
}
