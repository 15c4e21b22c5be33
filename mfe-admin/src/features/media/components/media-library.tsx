import { useEffect, useRef, useState } from 'react';
import { Button } from '@site/ui';
import { LoadFailed, LoadingRows } from '../../../components/load-state';
import { errorMessage } from '../../../lib/admin-request';
import type { useMediaLibraryQuery } from '../api/list-media';
import { MediaCard } from './media-card';

/**
 * The loaded pages as one grid, and "Load more images" while older ones remain. The button keeps the keyboard focus
 * while it waits (it is never disabled under it); then the focus moves to the first image loaded, so Tab carries on
 * from there, and a status line says how many came.
 */
export function MediaLibrary({ library }: { library: ReturnType<typeof useMediaLibraryQuery> }) {
  const grid = useRef<HTMLUListElement>(null);
  const focusFrom = useRef<number | null>(null);
  const [loaded, setLoaded] = useState('');
  const data = library.data;
  const media = data?.pages.flatMap((page) => page.media) ?? [];

  useEffect(() => {
    const from = focusFrom.current;
    if (from === null || media.length <= from) return;
    focusFrom.current = null;
    const first = grid.current?.children.item(from);
    if (first instanceof HTMLElement) first.focus();
  }, [media.length]);

  if (!data) {
    return library.error ? (
      <LoadFailed title="Could not load the images" message={errorMessage(library.error, 'The server did not answer.')} onRetry={() => void library.refetch()} />
    ) : (
      <LoadingRows label="Loading images…" rows={2} />
    );
  }
  if (media.length === 0) {
    return <p className="rounded-xl border border-dashed border-border p-6 text-center text-sm text-muted-fg">No images yet. Upload one above or from a post's form.</p>;
  }

  async function loadMore() {
    if (library.isFetchingNextPage) return;
    focusFrom.current = media.length;
    setLoaded('');
    const answer = await library.fetchNextPage();
    const count = answer.data?.pages.at(-1)?.media.length ?? 0;
    if (answer.isError || count === 0) focusFrom.current = null;
    if (!answer.isError) setLoaded(`${count} more ${count === 1 ? 'image' : 'images'} loaded${answer.hasNextPage ? '' : '; that is every image'}.`);
  }

  return (
    <>
      <ul ref={grid} className="grid grid-cols-1 gap-4 sm:grid-cols-2 xl:grid-cols-3" aria-label="Images">
        {media.map((item) => (
          <MediaCard key={item.id} media={item} />
        ))}
      </ul>
      <div className="mt-4 flex flex-col items-center gap-2 text-sm">
        {library.hasNextPage && (
          <Button variant="secondary" onClick={() => void loadMore()} aria-disabled={library.isFetchingNextPage || undefined} aria-busy={library.isFetchingNextPage || undefined}>
            {library.isFetchingNextPage ? 'Loading images…' : 'Load more images'}
          </Button>
        )}
        {library.isFetchNextPageError && (
          <p role="alert" className="font-medium text-danger">
            Could not load more images. {errorMessage(library.error, 'The server did not answer.')}
          </p>
        )}
        <p role="status" className="text-muted-fg">
          {loaded}
        </p>
      </div>
    </>
  );
}
