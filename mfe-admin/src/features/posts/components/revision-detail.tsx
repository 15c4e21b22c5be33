import type { Ref } from 'react';
import type { PostRevisionSummary } from '@site/contracts/admin';
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

/** Loads one revision (with its fields) and shows it against the current version. */
function RevisionContent({ postId, summary, post }: { postId: string; summary: PostRevisionSummary; post: Post }) {
  const revision = usePostRevisionQuery(postId, summary.id);
  if (revision.error && !revision.isFetching) {
    return <LoadFailed title="Could not load this version" message={errorMessage(revision.error, 'The server did not answer.')} onRetry={() => void revision.refetch()} />;
  }
  if (!revision.data) return <LoadingRows label="Loading this version…" rows={4} />;
  return <RevisionView revision={revision.data} post={post} />;
}

/** The chosen revision: what it was, 'Restore this version', and what changed since (or its preview). */
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
        <Button size="sm" onClick={onRestore}>
          Restore this version
        </Button>
      </div>
      <RevisionContent key={summary.id} postId={post.id} summary={summary} post={post} />
    </div>
  );
}
