import { useRef, useState } from 'react';
import { adminPostConflictDetailsSchema, type PostRevisionSummary, type RevisionAction } from '@site/contracts/admin';
import { BUSINESS_TIME_ZONE_LABEL, formatInBusinessZone } from '@site/contracts/post-schedule';
import type { Post } from '@site/contracts/posts';
import { ApiError, Button, cn, notify } from '@site/ui';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { LoadFailed, LoadingRows } from '../../../components/load-state';
import { Panel } from '../../../components/panel';
import { StatusPill } from '../../../components/status-pill';
import { errorMessage } from '../../../lib/admin-request';
import { useResource } from '../../../lib/use-resource';
import { getPostRevision } from '../api/get-post-revision';
import { listPostRevisions } from '../api/list-post-revisions';
import { restorePostRevision } from '../api/restore-post-revision';
import { statusTone } from '../lib/post-status';
import { changedFieldLabels } from '../lib/revision-diff';
import { RevisionView } from './revision-view';

export const HISTORY_PAGE_SIZE = 10;

function actionText(r: PostRevisionSummary): string {
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

/**
 * The edit screen's History: the post's revisions newest first, page by page (they reload whenever the post is
 * saved, published, scheduled or restored, as each changes its updatedAt); one of them against the current version;
 * and 'Restore this version', which sends the updatedAt the form loaded so a change made elsewhere is never
 * overwritten (409: the form's conflict notice takes over).
 */
export function PostHistory({
  post,
  dirty,
  onRestored,
  onConflict,
}: {
  post: Post;
  /** The form has edits not saved yet: restoring replaces them (the form keeps them on this device). */
  dirty: boolean;
  onRestored: (post: Post, revision: PostRevisionSummary) => void;
  onConflict: (current: Post) => void;
}) {
  const version = `${post.id}:${post.updatedAt}:${post.status}`;
  const [paging, setPaging] = useState({ version, page: 1 });
  const page = paging.version === version ? paging.page : 1;
  const [selected, setSelected] = useState<PostRevisionSummary | null>(null);
  const [confirming, setConfirming] = useState(false);
  const [restoring, setRestoring] = useState(false);
  const detailRef = useRef<HTMLHeadingElement>(null);

  const list = useResource(`revisions:${version}:${page}`, (signal) => listPostRevisions(post.id, { page, limit: HISTORY_PAGE_SIZE }, signal));
  const data = list.data;
  const pages = data ? Math.max(1, Math.ceil(data.total / data.limit)) : 1;

  function select(r: PostRevisionSummary) {
    setSelected(r);
    requestAnimationFrame(() => detailRef.current?.focus());
  }

  async function restore() {
    if (!selected) return;
    setRestoring(true);
    try {
      const updated = await restorePostRevision(post.id, selected.id, post.updatedAt);
      setConfirming(false);
      const from = selected;
      setSelected(null);
      onRestored(updated, from);
    } catch (err) {
      setConfirming(false);
      if (err instanceof ApiError && err.status === 409) {
        const details = adminPostConflictDetailsSchema.safeParse(err.details);
        onConflict(details.success ? details.data.current : post);
      } else if (err instanceof ApiError && err.status === 404) {
        notify.error('This version could not be found', { description: 'The post or its history may have been deleted. Reload the page.' });
      } else if (!(err instanceof ApiError && err.status === 401)) {
        notify.error(errorMessage(err, 'Error restoring this version. Please try again.'));
      }
    } finally {
      setRestoring(false);
    }
  }

  return (
    <Panel
      id="history"
      title="History"
      className="mt-8"
      description={`Every saved version of this post, newest first. Times in ${BUSINESS_TIME_ZONE_LABEL}.`}
    >
      <div className="grid gap-6 lg:grid-cols-[minmax(0,20rem)_minmax(0,1fr)]">
        <div className="min-w-0">
          {list.error && !data ? (
            <LoadFailed title="Could not load the history" message={errorMessage(list.error, 'The server did not answer.')} onRetry={list.reload} />
          ) : !data ? (
            <LoadingRows label="Loading the history…" rows={3} />
          ) : data.revisions.length === 0 ? (
            <p className="rounded-xl border border-dashed border-border p-4 text-sm text-muted-fg">No versions recorded yet.</p>
          ) : (
            <>
              <ol aria-label="Revisions" aria-busy={list.loading || undefined} className="space-y-2">
                {data.revisions.map((r, i) => {
                  const isCurrent = page === 1 && i === 0;
                  // A first version (created, or there before history was kept) changed every field: nothing to list.
                  const fields = r.action === 'create' || r.action === 'import' ? [] : changedFieldLabels(r.changedFields);
                  return (
                    <li key={r.id}>
                      <button
                        type="button"
                        aria-current={selected?.id === r.id ? 'true' : undefined}
                        onClick={() => select(r)}
                        className={cn(
                          'block w-full cursor-pointer rounded-xl border border-border bg-bg p-3 text-left text-sm hover:bg-surface-muted focus-visible:outline-2 focus-visible:outline-ring',
                          selected?.id === r.id && 'border-primary bg-primary-soft hover:bg-primary-soft',
                        )}
                      >
                        <span className="flex flex-wrap items-center gap-2">
                          <span className="font-semibold text-fg">#{r.number}</span>{' '}
                          <span className="text-fg">{actionText(r)}</span>
                          {isCurrent && (
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
                  <Button variant="secondary" size="sm" disabled={page <= 1 || list.loading} onClick={() => setPaging({ version, page: page - 1 })}>
                    Newer
                  </Button>
                  <span className="text-xs text-muted-fg">
                    Page {page} of {pages}
                  </span>
                  <Button variant="secondary" size="sm" disabled={page >= pages || list.loading} onClick={() => setPaging({ version, page: page + 1 })}>
                    Older
                  </Button>
                </nav>
              )}
            </>
          )}
        </div>

        <div className="min-w-0">
          {selected ? (
            <div>
              <div className="mb-4 flex flex-wrap items-start justify-between gap-3">
                <div className="min-w-0">
                  <h3 ref={detailRef} tabIndex={-1} className="text-base font-bold text-fg focus-visible:outline-2 focus-visible:outline-ring">
                    Revision #{selected.number}: {actionText(selected)}
                  </h3>
                  <p className="mt-1 text-xs text-muted-fg">
                    by {selected.author.label} · {formatInBusinessZone(selected.createdAt)} · compared with the current saved version
                  </p>
                  <p className="mt-1">
                    <StatusPill tone={statusTone(selected.status)}>{selected.status} then</StatusPill>
                  </p>
                </div>
                <Button size="sm" onClick={() => setConfirming(true)}>
                  Restore this version
                </Button>
              </div>
              <RevisionDetail key={selected.id} postId={post.id} summary={selected} post={post} />
            </div>
          ) : (
            <p className="rounded-xl border border-dashed border-border p-4 text-sm text-muted-fg">
              Choose a version to see what changed since then, preview it or restore it.
            </p>
          )}
        </div>
      </div>

      <ConfirmDialog
        open={confirming}
        onOpenChange={setConfirming}
        title="Restore this version?"
        description={
          selected
            ? `The title, content and other fields become those of revision #${selected.number} (${formatInBusinessZone(selected.createdAt)}). The post keeps its status and address, and the current version stays in the history.`
            : ''
        }
        confirmLabel="Restore this version"
        busyLabel="Restoring…"
        busy={restoring}
        onConfirm={restore}
      >
        {dirty && (
          <p className="mt-3 rounded-lg bg-warning-soft px-3 py-2 text-sm text-fg">
            The form has unsaved changes. They are replaced in the form, and kept on this device so you can restore them.
          </p>
        )}
      </ConfirmDialog>
    </Panel>
  );
}

/** Loads one revision (with its fields) and shows it against the current version. */
function RevisionDetail({ postId, summary, post }: { postId: string; summary: PostRevisionSummary; post: Post }) {
  const revision = useResource(`revision:${postId}:${summary.id}`, (signal) => getPostRevision(postId, summary.id, signal));
  if (revision.error && !revision.loading) {
    return <LoadFailed title="Could not load this version" message={errorMessage(revision.error, 'The server did not answer.')} onRetry={revision.reload} />;
  }
  if (!revision.data || revision.data.id !== summary.id) return <LoadingRows label="Loading this version…" rows={4} />;
  return <RevisionView revision={revision.data} post={post} />;
}
