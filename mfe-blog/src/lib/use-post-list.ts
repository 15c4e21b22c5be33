import { keepPreviousData, useInfiniteQuery } from '@tanstack/react-query';
import type { PostSummary } from '@site/contracts/posts';
import { getPosts, type PostFilter } from './get-posts';

export const postListKey = (filter: PostFilter) => ['posts', 'list', filter] as const;

export type PostListView = {
  /** The posts of every page loaded so far; null before the first page is known. */
  posts: PostSummary[] | null;
  /** How many posts match the filter on the server (all pages). */
  total: number | null;
  /** A search's `total` is a lower bound: the server counts its matches up to 1,000 and says when more match. */
  totalIsLowerBound: boolean;
  /** True while the shown posts belong to the previous filter (a new search is on its way). */
  stale: boolean;
  loading: boolean;
  /** The last request's failure (the cached or previous posts may still be shown). */
  error: string | null;
  retry: () => void;
  hasMore: boolean;
  loadingMore: boolean;
  loadMore: () => void;
};

/**
 * Published posts matching `filter`, a page at a time, from the server's search. `keepPrevious` keeps the
 * last answer on screen while a new filter loads (typing in the search box), instead of a skeleton. `enabled:
 * false` asks nothing (the server already answered that there is nothing to list).
 */
export function usePostList(filter: PostFilter, { keepPrevious = false, enabled = true } = {}): PostListView {
  const query = useInfiniteQuery({
    queryKey: postListKey(filter),
    queryFn: ({ pageParam, signal }) => getPosts(filter, pageParam, signal),
    enabled,
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.nextCursor,
    placeholderData: keepPrevious ? keepPreviousData : undefined,
  });
  const pages = query.data?.pages;
  return {
    posts: pages ? pages.flatMap((p) => p.posts) : null,
    total: pages?.length ? pages[pages.length - 1]!.total : null,
    totalIsLowerBound: pages?.length ? pages[pages.length - 1]!.totalIsLowerBound === true : false,
    stale: query.isPlaceholderData,
    loading: query.isFetching && !query.isFetchingNextPage,
    error: query.error ? query.error.message || 'Could not load the articles' : null,
    // A failed further page is fetched again; otherwise the whole list is.
    retry: () => void (query.isFetchNextPageError ? query.fetchNextPage() : query.refetch()),
    hasMore: query.hasNextPage && !query.isPlaceholderData,
    loadingMore: query.isFetchingNextPage,
    loadMore: () => {
      if (!query.isFetchingNextPage) void query.fetchNextPage();
    },
  };
}
