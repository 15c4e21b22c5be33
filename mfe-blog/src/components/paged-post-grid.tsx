import { useEffect, useRef } from 'react';
import type { PostSummary } from '@site/contracts/posts';
import { LoadMore } from './load-state';
import { PostGrid } from './post-card';

/**
 * The card grid a page at a time: "Load more" below it while the server has more. Once a further page
 * arrives, the keyboard focus moves to its first card (where reading goes on), so it is never left on a
 * button that disappeared after the last page.
 */
export function PagedPostGrid({
  posts,
  total,
  totalIsLowerBound = false,
  hasMore,
  loadingMore,
  onLoadMore,
}: {
  posts: PostSummary[];
  total: number | null;
  /** `total` is where the server stopped counting a search's matches (more match): "(988+ more)". */
  totalIsLowerBound?: boolean;
  hasMore: boolean;
  loadingMore: boolean;
  onLoadMore: () => void;
}) {
  const grid = useRef<HTMLDivElement>(null);
  const focusFrom = useRef<number | null>(null);
  useEffect(() => {
    const from = focusFrom.current;
    if (from === null || posts.length <= from) return;
    focusFrom.current = null;
    grid.current?.querySelectorAll('li')[from]?.querySelector('a')?.focus();
  }, [posts.length]);

  return (
    <div ref={grid}>
      <PostGrid posts={posts} />
      {hasMore && (
        <LoadMore
          loading={loadingMore}
          remaining={(total ?? posts.length) - posts.length}
          atLeast={totalIsLowerBound}
          onClick={() => {
            focusFrom.current = posts.length;
            onLoadMore();
          }}
        />
      )}
    </div>
  );
}
