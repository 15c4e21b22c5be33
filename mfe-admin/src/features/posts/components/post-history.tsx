import { memo, useRef, useState } from 'react';
import { adminPostConflictDetailsSchema, REVISION_IS_CURRENT, type PostRevisionSummary } from '@site/contracts/admin';
import { BUSINESS_TIME_ZONE_LABEL, formatInBusinessZone } from '@site/contracts/post-schedule';
import type { Post } from '@site/contracts/posts';
import { ApiError, notify } from '@site/ui';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { Panel } from '../../../components/panel';
import { errorMessage } from '../../../lib/admin-request';
import { useRestorePostRevisionMutation } from '../api/restore-post-revision';
import { RevisionDetail } from './revision-detail';
import { RevisionList } from './revision-list';

/**
 * The edit screen's History: the post's revisions newest first, page by page (every save, publish, schedule or
 * restore asks them again); one of them against the current version; and 'Restore this version', which sends the
 * updatedAt the form loaded so a change made elsewhere is never overwritten (409: the form's conflict notice takes over).
 * Rendered again when its props change, not on every edit of the form (the callbacks given are stable).
 */
export const PostHistory = memo(function PostHistory({
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
  // A new version of the post (saved, restored…) starts the history at its first page again.
  const version = `${post.id}:${post.updatedAt}:${post.status}`;
  const [paging, setPaging] = useState({ version, page: 1 });
  const page = paging.version === version ? paging.page : 1;
  const [selected, setSelected] = useState<PostRevisionSummary | null>(null);
  const [confirming, setConfirming] = useState(false);
  const restore = useRestorePostRevisionMutation();
  const detailRef = useRef<HTMLHeadingElement>(null);

  function select(r: PostRevisionSummary) {
    setSelected(r);
    requestAnimationFrame(() => detailRef.current?.focus());
  }

  function onConfirm() {
    if (!selected) return;
    const from = selected;
    restore.mutate(
      { postId: post.id, revisionId: from.id, expectedUpdatedAt: post.updatedAt },
      {
        onSuccess: (updated) => {
          setConfirming(false);
          setSelected(null);
          onRestored(updated, from);
        },
        onError: (err) => {
          setConfirming(false);
          if (err instanceof ApiError && err.status === 409 && err.code === REVISION_IS_CURRENT.code) {
            // The post already has this version's fields (the form's version is the stored one): nothing was recorded.
            notify.info(REVISION_IS_CURRENT.message);
          } else if (err instanceof ApiError && err.status === 409) {
            const details = adminPostConflictDetailsSchema.safeParse(err.details);
            onConflict(details.success ? details.data.current : post);
          } else if (err instanceof ApiError && err.status === 404) {
            notify.error('This version could not be found', { description: 'The post or its history may have been deleted. Reload the page.' });
          } else if (!(err instanceof ApiError && err.status === 401)) {
            notify.error(errorMessage(err, 'Error restoring this version. Please try again.'));
          }
        },
      },
    );
  }

  return (
    <Panel id="history" title="History" className="mt-8" description={`Every saved version of this post, newest first. Times in ${BUSINESS_TIME_ZONE_LABEL}.`}>
      <div className="grid gap-6 lg:grid-cols-[minmax(0,20rem)_minmax(0,1fr)]">
        <div className="min-w-0">
          <RevisionList postId={post.id} page={page} onPage={(p) => setPaging({ version, page: p })} selectedId={selected?.id} onSelect={select} />
        </div>
        <div className="min-w-0">
          {selected ? (
            <RevisionDetail summary={selected} post={post} headingRef={detailRef} onRestore={() => setConfirming(true)} />
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
        busy={restore.isPending}
        onConfirm={onConfirm}
      >
        {dirty && (
          <p className="mt-3 rounded-lg bg-warning-soft px-3 py-2 text-sm text-fg">
            The form has unsaved changes. They are replaced in the form, and kept on this device so you can restore them.
          </p>
        )}
      </ConfirmDialog>
    </Panel>
  );
});
