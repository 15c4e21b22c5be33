import { useEffect } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import type { Post } from '@site/contracts/posts';
import { recordView } from '../api/record-view';
import { postKey } from './use-post';

/** Page views already counted, by history entry: StrictMode's double effects and re-renders count once. */
const counted = new Set<string>();

/**
 * Counts one view of `slug` per visit (history entry `visitKey`) once the post is shown, and puts the new
 * total into the cached post. A view that was not counted is not worth bothering the reader about.
 */
export function useRecordView(slug: string, visitKey: string, shown: boolean): void {
  const client = useQueryClient();
  useEffect(() => {
    if (!shown) return;
    const key = `${visitKey}:${slug}`;
    if (counted.has(key)) return;
    counted.add(key);
    recordView(slug).then(
      (views) => client.setQueryData<Post>(postKey(slug), (post) => post && { ...post, views }),
      () => undefined,
    );
  }, [client, slug, visitKey, shown]);
}
