import { useState } from 'react';
import { RESTORED_AS_DRAFT, type DeletedPost } from '@site/contracts/admin';
import { ApiError, Button, notify } from '@site/ui';
import { LoadFailed, LoadingRows } from '../../../components/load-state';
import { Panel } from '../../../components/panel';
import { errorMessage } from '../../../lib/admin-request';
import { formatDateTime, formatDay } from '../../../lib/format';
import { useDeletedPostsQuery } from '../api/list-deleted-posts';
import { useUndeletePostMutation } from '../api/undelete-post';

/**
 * 'Recently deleted': posts deleted in the last 30 days, each with when it goes for good and a Restore that brings it
 * back as a draft. Loaded when opened; a delete or a restore anywhere on the page asks it again.
 */
export function RecentlyDeleted() {
  const [open, setOpen] = useState(false);
  return (
    <Panel
      id="recently-deleted"
      title="Recently deleted"
      description="Deleted posts are kept for 30 days; restore one to get it back as a draft."
      actions={
        <Button variant="secondary" size="sm" aria-expanded={open} aria-controls="recently-deleted-list" onClick={() => setOpen((o) => !o)}>
          {open ? 'Hide deleted posts' : 'Show deleted posts'}
        </Button>
      }
    >
      <div id="recently-deleted-list">{open && <DeletedList />}</div>
    </Panel>
  );
}

function DeletedList() {
  const list = useDeletedPostsQuery();
  const undelete = useUndeletePostMutation();
  const restoring = undelete.isPending ? undelete.variables : null;

  const restore = (deleted: DeletedPost) =>
    undelete.mutate(deleted.id, {
      onSuccess: (post) => notify.success(RESTORED_AS_DRAFT, { description: `“${post.title}” is back in the list as a draft.` }),
      onError: (err) => {
        if (!(err instanceof ApiError && err.status === 401)) notify.error(errorMessage(err, 'Error restoring the post. Please try again.'));
      },
    });

  if (list.error && !list.data) {
    return <LoadFailed title="Could not load the deleted posts" message={errorMessage(list.error, 'The server did not answer.')} onRetry={() => void list.refetch()} />;
  }
  if (!list.data) return <LoadingRows label="Loading deleted posts…" rows={2} />;
  if (list.data.length === 0) {
    return <p className="rounded-xl border border-dashed border-border p-4 text-sm text-muted-fg">No posts were deleted in the last 30 days.</p>;
  }
  return (
    <ul aria-label="Deleted posts" aria-busy={list.isFetching || undefined} className="divide-y divide-border overflow-hidden rounded-xl border border-border">
      {list.data.map((p) => (
        <li key={p.id} className="flex flex-col gap-3 bg-surface p-4 sm:flex-row sm:items-center sm:justify-between">
          <div className="min-w-0 space-y-1">
            <p className="break-words font-semibold text-fg">{p.title}</p>
            <dl className="flex flex-wrap gap-x-4 gap-y-1 text-xs text-muted-fg">
              <div className="flex gap-1">
                <dt>Deleted</dt>
                <dd className="text-fg">
                  <time dateTime={p.deletedAt}>{formatDateTime(p.deletedAt)}</time>
                </dd>
              </div>
              <div className="flex gap-1">
                <dt>Kept until</dt>
                <dd className="text-fg">
                  <time dateTime={p.purgeAt}>{formatDay(p.purgeAt)}</time>
                </dd>
              </div>
              <div className="flex gap-1">
                <dt>Was</dt>
                <dd className="text-fg">{p.status}</dd>
              </div>
            </dl>
          </div>
          <Button size="sm" variant="secondary" className="shrink-0" onClick={() => restore(p)} disabled={restoring !== null} aria-busy={restoring === p.id || undefined}>
            {restoring === p.id ? 'Restoring…' : 'Restore'}{' '}
            <span className="sr-only">“{p.title}”</span>
          </Button>
        </li>
      ))}
    </ul>
  );
}
