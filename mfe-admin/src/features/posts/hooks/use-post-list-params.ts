import { useMemo } from 'react';
import { useSearchParams } from 'react-router-dom';
import { POST_STATUSES, type PostStatus } from '@site/contracts/posts';

const isStatus = (v: string | null): v is PostStatus => !!v && (POST_STATUSES as readonly string[]).includes(v);

/** The list's search, status filter and page (its cursor), kept in the URL (a link or a reload shows the same list). */
export function usePostListParams() {
  const [params, setParams] = useSearchParams();
  const rawStatus = params.get('status');
  const actions = useMemo(() => {
    const update = (change: (next: URLSearchParams) => void, options?: { replace: boolean }) =>
      setParams((p) => {
        const next = new URLSearchParams(p);
        change(next);
        return next;
      }, options);
    return {
      /** A new search starts at the first page; it replaces the entry (typing is not a place to go back to). */
      setQuery: (q: string) =>
        update(
          (next) => {
            if (q) next.set('q', q);
            else next.delete('q');
            next.delete('cursor');
          },
          { replace: true },
        ),
      setStatus: (value: string) =>
        update((next) => {
          if (isStatus(value)) next.set('status', value);
          else next.delete('status');
          next.delete('cursor');
        }),
      /** Another page: the `nextCursor` / `prevCursor` the list answered; none for the newest page. */
      setCursor: (cursor: string | null, options?: { replace: boolean }) =>
        update((next) => {
          if (cursor) next.set('cursor', cursor);
          else next.delete('cursor');
        }, options),
      clear: () => setParams(new URLSearchParams()),
    };
  }, [setParams]);
  return {
    q: params.get('q') ?? '',
    status: isStatus(rawStatus) ? rawStatus : undefined,
    cursor: params.get('cursor') || undefined,
    ...actions,
  };
}

export type PostListParams = ReturnType<typeof usePostListParams>;
