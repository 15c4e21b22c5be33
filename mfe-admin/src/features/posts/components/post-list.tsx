import type { PostSummary } from '@site/contracts/posts';
import { Button, ButtonLink } from '@site/ui';
import { LoadFailed, LoadingRows } from '../../../components/load-state';
import { adminPages } from '../../../config/pages';
import { errorMessage } from '../../../lib/admin-request';
import type { usePostsQuery } from '../api/list-posts';
import type { PostListParams } from '../hooks/use-post-list-params';
import { PostRow } from './post-row';

/** Previous / Next under the list, when there is more than one page. */
function PostListPages({ page, limit, total, onPage }: { page: number; limit: number; total: number; onPage: (n: number) => void }) {
  if (total <= limit) return null;
  return (
    <nav aria-label="Pages of posts" className="mt-4 flex items-center justify-between gap-2">
      <Button variant="secondary" size="sm" disabled={page <= 1} onClick={() => onPage(page - 1)}>
        Previous
      </Button>
      <span className="text-sm text-muted-fg">
        Page {page} of {Math.ceil(total / limit)}
      </span>
      <Button variant="secondary" size="sm" disabled={page * limit >= total} onClick={() => onPage(page + 1)}>
        Next
      </Button>
    </nav>
  );
}

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
  const first = (data.page - 1) * data.limit + 1;
  return (
    <>
      <p className="mb-3 text-sm text-muted-fg" aria-live="polite" aria-busy={list.isFetching || undefined}>
        Showing {first}–{first + data.posts.length - 1} of {data.total} {data.total === 1 ? 'post' : 'posts'}
      </p>
      <ul className="divide-y divide-border overflow-hidden rounded-xl border border-border">
        {data.posts.map((post) => (
          <PostRow key={post.id} post={post} onSchedule={onSchedule} onDelete={onDelete} />
        ))}
      </ul>
      <PostListPages page={data.page} limit={data.limit} total={data.total} onPage={params.setPage} />
    </>
  );
}
