import { postSummarySchema, type PostSummary } from '@site/contracts/posts';
import { z } from 'zod';

/** localStorage key of the posts last read, shown at once on the next visit while fresh data loads. */
export const POSTS_CACHE_KEY = 'blog:posts:v1';
/** Older than this, a cached list is not worth showing. */
export const POSTS_CACHE_MAX_AGE_MS = 7 * 24 * 60 * 60 * 1000;

const cacheSchema = z.object({ savedAt: z.number(), posts: z.array(postSummarySchema) });

/** The cached list, or null when absent, stale, unparsable or storage is unavailable. */
export function readCachedPosts(now = Date.now()): PostSummary[] | null {
  try {
    const raw = window.localStorage.getItem(POSTS_CACHE_KEY);
    if (!raw) return null;
    const parsed = cacheSchema.safeParse(JSON.parse(raw));
    if (!parsed.success || now - parsed.data.savedAt > POSTS_CACHE_MAX_AGE_MS) return null;
    return parsed.data.posts;
  } catch {
    return null;
  }
}

export function writeCachedPosts(posts: PostSummary[], now = Date.now()): void {
  try {
    window.localStorage.setItem(POSTS_CACHE_KEY, JSON.stringify({ savedAt: now, posts }));
  } catch (error) {
    // Storage full or blocked: the page works without it.
    console.warn('Could not cache blog posts', error);
  }
}
