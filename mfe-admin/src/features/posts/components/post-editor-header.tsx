import { BUSINESS_TIME_ZONE_LABEL, formatInBusinessZone } from '@site/contracts/post-schedule';
import { Button, cn } from '@site/ui';
import { AdminPageHeader } from '../../../components/admin-page-header';
import { StatusPill } from '../../../components/status-pill';
import type { PostEditorState } from '../hooks/use-post-editor';
import { statusTone } from '../lib/post-status';
import { PostStatusActions } from './post-status-actions';

/** The form's heading: the post's status, when it publishes and its address; Preview, the status changes and Delete. */
export function PostEditorHeader({ editor, heading, onDelete }: { editor: PostEditorState; heading: string; onDelete: () => void }) {
  const { post, preview, setPreview } = editor;
  return (
    <AdminPageHeader
      heading={heading}
      lead={
        post ? (
          <span className="flex flex-wrap items-center gap-2">
            <StatusPill tone={statusTone(post.status)}>{post.status}</StatusPill>
            {post.status === 'scheduled' && post.publishAt && (
              <span>
                Publishes <time dateTime={post.publishAt}>{formatInBusinessZone(post.publishAt)}</time> <span className="text-xs">({BUSINESS_TIME_ZONE_LABEL})</span>
              </span>
            )}
            <span className="break-all">/blog/{post.slug}</span>
          </span>
        ) : (
          'New posts are saved as drafts; publish them from the list.'
        )
      }
      actions={
        <>
          <Button variant="secondary" aria-pressed={preview} onClick={() => setPreview((p) => !p)} className={cn(preview && 'border-primary bg-primary-soft text-primary-soft-fg')}>
            <svg aria-hidden="true" viewBox="0 0 24 24" className="h-4 w-4" fill="none" stroke="currentColor" strokeWidth="2">
              <path d="M2 12s3.5-7 10-7 10 7 10 7-3.5 7-10 7S2 12 2 12Z" />
              <circle cx="12" cy="12" r="3" />
            </svg>
            Preview
          </Button>
          <PostStatusActions editor={editor} />
          {post && (
            <Button variant="danger" onClick={onDelete}>
              Delete
            </Button>
          )}
        </>
      }
    />
  );
}
