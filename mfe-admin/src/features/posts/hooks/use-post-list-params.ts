import { useMemo } from 'react';
import { useSearchParams } from 'react-router-dom';
import { POST_STATUSES, type PostStatus } from '@site/contracts/posts';

const isStatus = (v: string | null): v is PostStatus => !!v && (POST_STATUSES as readonly string[]).includes(v);

/** The list's search, status filter and page, kept in the URL (a link or a reload shows the same list). */
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
            next.delete('page');
          },
          { replace: true },
        ),
      setStatus: (value: string) =>
        update((next) => {
          if (isStatus(value)) next.set('status', value);
          else next.delete('status');
          next.delete('page');
        }),
      setPage: (n: number) =>
        update((next) => {
          if (n > 1) next.set('page', String(n));
          else next.delete('page');
        }),
      clear: () => setParams(new URLSearchParams()),
    };
  }, [setParams]);
  return {
    q: params.get('q') ?? '',
    status: isStatus(rawStatus) ? rawStatus : undefined,
    page: Math.max(1, Number(params.get('page')) || 1),
    ...actions,
  };
}

export type PostListParams = ReturnType<typeof usePostListParams>;
