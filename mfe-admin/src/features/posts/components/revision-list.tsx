import type { PostRevisionSummary, RevisionAction } from '@site/contracts/admin';
import { formatInBusinessZone } from '@site/contracts/post-schedule';
import { Button, cn } from '@site/ui';
import { LoadFailed, LoadingRows } from '../../../components/load-state';
import { StatusPill } from '../../../components/status-pill';
import { errorMessage } from '../../../lib/admin-request';
import { usePostRevisionsQuery } from '../api/list-post-revisions';
import { changedFieldLabels } from '../lib/revision-diff';

export const HISTORY_PAGE_SIZE = 10;

/** What a revision did, as the history says it. */
export function actionText(r: PostRevisionSummary): string {
  const labels: Record<RevisionAction, string> = {
    create: 'Created',
    update: 'Edited',
    publish: 'Published',
    schedule: 'Scheduled',
    unschedule: 'Unscheduled',
    restore: r.restoredFrom ? `Restored revision #${r.restoredFrom}` : 'Restored an earlier version',
    delete: 'Deleted',
    undelete: 'Brought back after deletion',
    import: 'Imported',
  };
  return labels[r.action];
}

/** One page of the post's revisions, newest first (the first is the current version), with Newer / Older. */
export function RevisionList({
  postId,
  page,
  onPage,
  selectedId,
  onSelect,
}: {
  postId: string;
  page: number;
  onPage: (page: number) => void;
  selectedId: string | undefined;
  onSelect: (revision: PostRevisionSummary) => void;
}) {
  const list = usePostRevisionsQuery(postId, page, HISTORY_PAGE_SIZE);
  const data = list.data;
  if (list.error && !data) return <LoadFailed title="Could not load the history" message={errorMessage(list.error, 'The server did not answer.')} onRetry={() => void list.refetch()} />;
  if (!data) return <LoadingRows label="Loading the history…" rows={3} />;
  if (data.revisions.length === 0) return <p className="rounded-xl border border-dashed border-border p-4 text-sm text-muted-fg">No versions recorded yet.</p>;
  const pages = Math.max(1, Math.ceil(data.total / data.limit));
  return (
    <>
      <ol aria-label="Revisions" aria-busy={list.isFetching || undefined} className="space-y-2">
        {data.revisions.map((r, i) => {
          // A first version (created, or there before history was kept) changed every field: nothing to list.
          const fields = r.action === 'create' || r.action === 'import' ? [] : changedFieldLabels(r.changedFields);
          return (
            <li key={r.id}>
              <button
                type="button"
                aria-current={selectedId === r.id ? 'true' : undefined}
                onClick={() => onSelect(r)}
                className={cn(
                  'block w-full cursor-pointer rounded-xl border border-border bg-bg p-3 text-left text-sm hover:bg-surface-muted focus-visible:outline-2 focus-visible:outline-ring',
                  selectedId === r.id && 'border-primary bg-primary-soft hover:bg-primary-soft',
                )}
              >
                <span className="flex flex-wrap items-center gap-2">
                  <span className="font-semibold text-fg">#{r.number}</span> <span className="text-fg">{actionText(r)}</span>
                  {page === 1 && i === 0 && (
                    <>
                      {' '}
                      <StatusPill tone="info">current</StatusPill>
                    </>
                  )}
                </span>{' '}
                <span className="mt-1 block text-xs text-muted-fg">
                  by {r.author.label} · <time dateTime={r.createdAt}>{formatInBusinessZone(r.createdAt)}</time>
                </span>{' '}
                {fields.length > 0 && <span className="mt-1 block text-xs text-muted-fg">Changed: {fields.join(', ')}</span>}
              </button>
            </li>
          );
        })}
      </ol>
      {data.total > data.limit && (
        <nav aria-label="Pages of the history" className="mt-3 flex items-center justify-between gap-2">
          <Button variant="secondary" size="sm" disabled={page <= 1 || list.isFetching} onClick={() => onPage(page - 1)}>
            Newer
          </Button>
          <span className="text-xs text-muted-fg">
            Page {page} of {pages}
          </span>
          <Button variant="secondary" size="sm" disabled={page >= pages || list.isFetching} onClick={() => onPage(page + 1)}>
            Older
          </Button>
        </nav>
      )}
    </>
  );
}
