import type { PostSummary } from '@site/contracts/posts';
import { useEffect } from 'react';
import { Button, ButtonLink } from '@site/ui';
import { ListPager } from '../../../components/list-pager';
import { LoadFailed, LoadingRows } from '../../../components/load-state';
import { adminPages } from '../../../config/pages';
import { errorMessage } from '../../../lib/admin-request';
import { formatCount } from '../../../lib/format';
import type { usePostsQuery } from '../api/list-posts';
import type { PostListParams } from '../hooks/use-post-list-params';
import { PostRow } from './post-row';

/** What the list shows: its loading rows, its failure, 'no posts', or the posts with how many and the pages. */
export function PostList({
  list,
  params,
  onSchedule,
  onDelete,
}: {
  list: ReturnType<typeof usePostsQuery>;
  params: PostListParams;
  onSchedule: (post: PostSummary) => void;
  onDelete: (post: PostSummary) => void;
}) {
  const { data } = list;
  const filtered = !!params.q || !!params.status;
  // A page emptied by changes meanwhile (its posts deleted or moved): back to the newest page, nothing lost.
  const emptiedPage = !!params.cursor && !!data && !list.isPlaceholderData && data.posts.length === 0;
  const { setCursor } = params;
  useEffect(() => {
    if (emptiedPage) setCursor(null, { replace: true });
  }, [emptiedPage, setCursor]);
  if (list.error && !data) {
    return <LoadFailed title="Could not load the posts" message={errorMessage(list.error, 'The server did not answer.')} onRetry={() => void list.refetch()} />;
  }
  if (!data) return <LoadingRows label="Loading posts…" rows={4} />;
  if (data.posts.length === 0) {
    return (
      <div className="rounded-xl border border-dashed border-border p-8 text-center">
        <p className="font-semibold text-fg">{filtered ? 'No posts match these filters' : 'No posts yet'}</p>
        <p className="mt-1 text-sm text-muted-fg">{filtered ? 'Try other words or another status.' : 'Write the first one, or send one from n8n.'}</p>
        {filtered ? (
          <Button variant="secondary" size="sm" className="mt-4" onClick={params.clear}>
            Clear filters
          </Button>
        ) : (
          <ButtonLink to={adminPages.createPost.path} size="sm" className="mt-4">
            Create Post
          </ButtonLink>
        )}
      </div>
    );
  }
  const posts = `${data.total} ${data.total === 1 ? 'post' : 'posts'}`;
  return (
    <>
      <p className="mb-3 text-sm text-muted-fg" aria-live="polite" aria-busy={list.isFetching || undefined}>
        {params.q && data.total > data.posts.length
          ? `The best ${data.posts.length} of ${formatCount(data.total, data.totalIsLowerBound)} matching posts. Add words to narrow the search.`
          : `${posts}${filtered ? (data.total === 1 ? ' matches' : ' match') : ''} · ${data.posts.length} on this page`}
      </p>
      <ul className="divide-y divide-border overflow-hidden rounded-xl border border-border">
        {data.posts.map((post) => (
          <PostRow key={post.id} post={post} onSchedule={onSchedule} onDelete={onDelete} />
        ))}
      </ul>
      <ListPager label="Pages of posts" newer={data.prevCursor} older={data.nextCursor} loading={list.isPlaceholderData && list.isFetching} onPage={(cursor) => params.setCursor(cursor)} />
    </>
  );
}
