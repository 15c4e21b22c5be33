import { useCallback, useEffect, useState } from 'react';
import type { PostSummary } from '@site/contracts/posts';
import { getPosts } from './get-posts';
import { readCachedPosts, writeCachedPosts } from './posts-cache';

export type PublishedPosts = {
  /** The posts to show: fresh ones, or the cached ones while loading; null before anything is known. */
  posts: PostSummary[] | null;
  loading: boolean;
  /** Set when the last request failed (the cached list may still be shown). */
  error: string | null;
  /** True while the shown list comes from the cache. */
  fromCache: boolean;
  retry: () => void;
};

/** Published posts: the cached list at once, then the API's answer, which refreshes the cache. */
export function usePublishedPosts(): PublishedPosts {
  const [cached] = useState(() => readCachedPosts());
  const [posts, setPosts] = useState<PostSummary[] | null>(cached);
  const [fromCache, setFromCache] = useState(cached !== null);
  const [loading, setLoading] = useState(true);
  const [error, setError] = useState<string | null>(null);
  const [attempt, setAttempt] = useState(0);

  useEffect(() => {
    const controller = new AbortController();
    setLoading(true);
    setError(null);
    getPosts(controller.signal).then(
      (list) => {
        setPosts(list.posts);
        setFromCache(false);
        setLoading(false);
        writeCachedPosts(list.posts);
      },
      (err: unknown) => {
        if (controller.signal.aborted) return;
        setError(err instanceof Error ? err.message : 'Could not load the articles');
        setLoading(false);
      },
    );
    return () => controller.abort();
  }, [attempt]);

  const retry = useCallback(() => setAttempt((n) => n + 1), []);
  return { posts, loading, error, fromCache, retry };
}
