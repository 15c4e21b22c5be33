import { Link } from 'react-router-dom';
import { blogPostPath } from '@site/contracts/blog-routes';
import { BUSINESS_TIME_ZONE_LABEL, formatInBusinessZone } from '@site/contracts/post-schedule';
import type { PostSummary } from '@site/contracts/posts';
import { ApiError, Button, ButtonLink, notify } from '@site/ui';
import { StatusPill } from '../../../components/status-pill';
import { editPostPath } from '../../../config/pages';
import { errorMessage } from '../../../lib/admin-request';
import { formatDay, formatNumber } from '../../../lib/format';
import { usePublishPostMutation } from '../api/publish-post';
import { useUnschedulePostMutation } from '../api/unschedule-post';
import { statusTone } from '../lib/post-status';

/** Dates of a post as one line: created, updated, published (and when a scheduled post goes live). */
function PostDates({ post }: { post: PostSummary }) {
  return (
    <dl className="flex flex-wrap gap-x-4 gap-y-1 text-xs text-muted-fg">
      {post.status === 'scheduled' && post.publishAt && (
        <div className="flex basis-full flex-wrap gap-1 text-sm">
          <dt className="font-semibold text-fg">Scheduled for</dt>
          <dd className="text-fg">
            <time dateTime={post.publishAt}>{formatInBusinessZone(post.publishAt)}</time> <span className="text-muted-fg">({BUSINESS_TIME_ZONE_LABEL})</span>
          </dd>
        </div>
      )}
      <div className="flex gap-1">
        <dt>Created</dt>
        <dd className="text-fg">{formatDay(post.createdAt)}</dd>
      </div>
      <div className="flex gap-1">
        <dt>Updated</dt>
        <dd className="text-fg">{formatDay(post.updatedAt)}</dd>
      </div>
      <div className="flex gap-1">
        <dt>Published</dt>
        <dd className="text-fg">{formatDay(post.publishedAt)}</dd>
      </div>
    </dl>
  );
}

const failed = (fallback: string) => (err: unknown) => {
  if (!(err instanceof ApiError && err.status === 401)) notify.error(errorMessage(err, fallback));
};

/**
 * One post of the list: status, category, title (a link to its form), dates, views, and its actions: View
 * (published), Edit, Publish and Schedule (drafts), Publish now and Unschedule (scheduled posts), Delete.
 */
export function PostRow({ post, onSchedule, onDelete }: { post: PostSummary; onSchedule: (post: PostSummary) => void; onDelete: (post: PostSummary) => void }) {
  const publish = usePublishPostMutation();
  const unschedule = useUnschedulePostMutation();
  const hidden = <span className="sr-only">“{post.title}”</span>;

  const onPublish = () =>
    publish.mutate(post.id, {
      onSuccess: (published) => notify.success('Post published', { description: `“${published.title}” is live at /blog/${published.slug}.` }),
      onError: failed('Error publishing post. Please try again.'),
    });
  const onUnschedule = () =>
    unschedule.mutate(post.id, {
      onSuccess: (draft) => notify.success('Post unscheduled', { description: `“${draft.title}” is a draft again.` }),
      onError: failed('Error unscheduling post. Please try again.'),
    });
  const publishButton = (label: string) => (
    <Button size="sm" onClick={onPublish} disabled={publish.isPending} aria-busy={publish.isPending || undefined}>
      {publish.isPending ? 'Publishing…' : label} {hidden}
    </Button>
  );

  return (
    <li className="flex flex-col gap-3 bg-surface p-4 lg:flex-row lg:items-center lg:justify-between">
      <div className="min-w-0 space-y-1.5">
        <div className="flex flex-wrap items-center gap-2">
          <StatusPill tone={statusTone(post.status)}>{post.status}</StatusPill>
          <span className="text-xs font-semibold text-muted-fg">{post.category}</span>
          {post.source === 'n8n' && <span className="rounded bg-surface-muted px-1.5 py-0.5 text-xs text-muted-fg">via n8n</span>}
        </div>
        <h3 className="break-words font-semibold text-fg">
          <Link to={editPostPath(post.id)} className="hover:underline">
            {post.title}
          </Link>
        </h3>
        <PostDates post={post} />
        <p className="text-xs text-muted-fg">
          {formatNumber(post.views)} {post.views === 1 ? 'view' : 'views'} · /blog/{post.slug}
        </p>
      </div>
      <div className="flex shrink-0 flex-wrap gap-2">
        {post.status === 'published' && (
          <ButtonLink to={blogPostPath(post.slug)} variant="ghost" size="sm">
            View <span className="sr-only">“{post.title}” on the blog</span>
          </ButtonLink>
        )}
        <ButtonLink to={editPostPath(post.id)} variant="secondary" size="sm">
          Edit {hidden}
        </ButtonLink>
        {post.status === 'draft' && (
          <>
            {publishButton('Publish')}
            <Button variant="secondary" size="sm" onClick={() => onSchedule(post)}>
              Schedule {hidden}
            </Button>
          </>
        )}
        {post.status === 'scheduled' && (
          <>
            {publishButton('Publish now')}
            <Button variant="secondary" size="sm" onClick={onUnschedule} disabled={unschedule.isPending} aria-busy={unschedule.isPending || undefined}>
              {unschedule.isPending ? 'Unscheduling…' : 'Unschedule'} {hidden}
            </Button>
          </>
        )}
        <Button variant="danger" size="sm" onClick={() => onDelete(post)}>
          Delete {hidden}
        </Button>
      </div>
    </li>
  );
}
