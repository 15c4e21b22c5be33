import type { Ref } from 'react';
import { isCurrentVersion, type PostRevisionSummary } from '@site/contracts/admin';
import { formatInBusinessZone } from '@site/contracts/post-schedule';
import type { Post } from '@site/contracts/posts';
import { Button } from '@site/ui';
import { LoadFailed, LoadingRows } from '../../../components/load-state';
import { StatusPill } from '../../../components/status-pill';
import { errorMessage } from '../../../lib/admin-request';
import { usePostRevisionQuery } from '../api/get-post-revision';
import { statusTone } from '../lib/post-status';
import { actionText } from './revision-list';
import { RevisionView } from './revision-view';

/** Shows one revision (with its fields, loaded by RevisionDetail) against the current version. */
function RevisionContent({ revision, post }: { revision: ReturnType<typeof usePostRevisionQuery>; post: Post }) {
  if (revision.error && !revision.isFetching) {
    return <LoadFailed title="Could not load this version" message={errorMessage(revision.error, 'The server did not answer.')} onRetry={() => void revision.refetch()} />;
  }
  if (!revision.data) return <LoadingRows label="Loading this version…" rows={4} />;
  return <RevisionView revision={revision.data} post={post} />;
}

/**
 * The chosen revision: what it was, 'Restore this version', and what changed since (or its preview). A revision whose
 * restorable fields are all the post's (`isCurrentVersion`, the API's own rule: it answers 409 `revision_is_current`)
 * offers no Restore, only the words "Current version"; nor does one still loading (its fields are not known yet).
 */
export function RevisionDetail({
  summary,
  post,
  headingRef,
  onRestore,
}: {
  summary: PostRevisionSummary;
  post: Post;
  headingRef: Ref<HTMLHeadingElement>;
  onRestore: () => void;
}) {
  const revision = usePostRevisionQuery(post.id, summary.id);
  const loaded = revision.data?.id === summary.id ? revision.data : undefined;
  // Unloadable: Restore stays offered (the server still refuses a restore that would change nothing).
  const current = loaded ? isCurrentVersion(loaded.post, post) : revision.error ? false : undefined;
  return (
    <div>
      <div className="mb-4 flex flex-wrap items-start justify-between gap-3">
        <div className="min-w-0">
          <h3 ref={headingRef} tabIndex={-1} className="text-base font-bold text-fg focus-visible:outline-2 focus-visible:outline-ring">
            Revision #{summary.number}: {actionText(summary)}
          </h3>
          <p className="mt-1 text-xs text-muted-fg">by {summary.author.label} · {formatInBusinessZone(summary.createdAt)} · compared with the current saved version</p>
          <p className="mt-1">
            <StatusPill tone={statusTone(summary.status)}>{summary.status} then</StatusPill>
          </p>
        </div>
        {current === false && (
          <Button size="sm" onClick={onRestore}>
            Restore this version
          </Button>
        )}
        {current === true && (
          <p className="rounded-lg border border-border bg-surface-muted px-3 py-1.5 text-sm font-semibold text-fg">
            Current version<span className="sr-only">: restoring it would change nothing</span>
          </p>
        )}
      </div>
      <RevisionContent key={summary.id} revision={revision} post={post} />
    </div>
  );
}
