import { useEffect, useState } from 'react';
import { Link, useSearchParams } from 'react-router-dom';
import { adminPostConflictDetailsSchema } from '@site/contracts/admin';
import { blogPostPath } from '@site/contracts/blog-routes';
import { BUSINESS_TIME_ZONE_LABEL, formatInBusinessZone } from '@site/contracts/post-schedule';
import { POST_STATUSES, type PostStatus, type PostSummary } from '@site/contracts/posts';
import { ApiError, Button, ButtonLink, notify } from '@site/ui';
import { AdminPageHeader } from '../../../components/admin-page-header';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { controlClass } from '../../../components/form-field';
import { LoadFailed, LoadingRows } from '../../../components/load-state';
import { StatusPill } from '../../../components/status-pill';
import { adminPages, editPostPath } from '../../../config/pages';
import { errorMessage } from '../../../lib/admin-request';
import { formatDay, formatNumber } from '../../../lib/format';
import { useResource } from '../../../lib/use-resource';
import { deletePost } from '../api/delete-post';
import { listPosts } from '../api/list-posts';
import { publishPost } from '../api/publish-post';
import { schedulePost } from '../api/schedule-post';
import { unschedulePost } from '../api/unschedule-post';
import { statusLabel, statusTone } from '../lib/post-status';
import { scheduleMessageForPeople } from '../lib/schedule-input';
import { RecentlyDeleted } from './recently-deleted';
import { ScheduleDialog } from './schedule-dialog';
import { WebhookDocs } from './webhook-docs';

export const DELETE_FROM_LIST_QUESTION = 'Are you sure you want to delete this post?';
const PAGE_SIZE = 50;

const isStatus = (v: string | null): v is PostStatus => !!v && (POST_STATUSES as readonly string[]).includes(v);

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

/**
 * /admin/posts: every post (draft, scheduled, published, archived) with status, category, dates and views; search
 * and a status filter kept in the URL; Edit, Publish and Schedule (drafts), Publish now and Unschedule (scheduled
 * posts) and Delete per post; the posts deleted in the last 30 days; the webhook documentation.
 */
export function PostsPage() {
  const [params, setParams] = useSearchParams();
  const q = params.get('q') ?? '';
  const status = isStatus(params.get('status')) ? (params.get('status') as PostStatus) : undefined;
  const page = Math.max(1, Number(params.get('page')) || 1);
  const [search, setSearch] = useState(q);
  const [publishing, setPublishing] = useState<string | null>(null);
  const [unscheduling, setUnscheduling] = useState<string | null>(null);
  const [toSchedule, setToSchedule] = useState<PostSummary | null>(null);
  /** Bumped by each delete here, so an open 'Recently deleted' list shows it. */
  const [deletions, setDeletions] = useState(0);
  const [toDelete, setToDelete] = useState<PostSummary | null>(null);
  const [deleting, setDeleting] = useState(false);

  const list = useResource(`posts:${q}:${status ?? ''}:${page}`, (signal) => listPosts({ q: q || undefined, status, page, limit: PAGE_SIZE }, signal));

  // The search box updates the URL a moment after typing stops (one request per pause, not per key).
  useEffect(() => {
    if (search.trim() === q) return;
    const timer = window.setTimeout(() => {
      setParams(
        (p) => {
          const next = new URLSearchParams(p);
          if (search.trim()) next.set('q', search.trim());
          else next.delete('q');
          next.delete('page');
          return next;
        },
        { replace: true },
      );
    }, 300);
    return () => window.clearTimeout(timer);
  }, [search, q, setParams]);

  const setStatus = (value: string) =>
    setParams((p) => {
      const next = new URLSearchParams(p);
      if (isStatus(value)) next.set('status', value);
      else next.delete('status');
      next.delete('page');
      return next;
    });
  const setPage = (n: number) =>
    setParams((p) => {
      const next = new URLSearchParams(p);
      if (n > 1) next.set('page', String(n));
      else next.delete('page');
      return next;
    });

  async function onPublish(post: PostSummary) {
    setPublishing(post.id);
    try {
      const published = await publishPost(post.id);
      notify.success('Post published', { description: `“${published.title}” is live at /blog/${published.slug}.` });
      list.reload();
    } catch (err) {
      if (!(err instanceof ApiError && err.status === 401)) notify.error(errorMessage(err, 'Error publishing post. Please try again.'));
    } finally {
      setPublishing(null);
    }
  }

  async function onUnschedule(post: PostSummary) {
    setUnscheduling(post.id);
    try {
      const draft = await unschedulePost(post.id);
      notify.success('Post unscheduled', { description: `“${draft.title}” is a draft again.` });
      list.reload();
    } catch (err) {
      if (!(err instanceof ApiError && err.status === 401)) notify.error(errorMessage(err, 'Error unscheduling post. Please try again.'));
    } finally {
      setUnscheduling(null);
    }
  }

  async function onSchedule(publishAt: string): Promise<string | undefined> {
    if (!toSchedule) return undefined;
    try {
      const scheduled = await schedulePost(toSchedule.id, { publishAt, expectedUpdatedAt: toSchedule.updatedAt });
      setToSchedule(null);
      notify.success('Post scheduled', {
        description: `“${scheduled.title}” will be published ${scheduled.publishAt ? formatInBusinessZone(scheduled.publishAt) : ''} (${BUSINESS_TIME_ZONE_LABEL}).`,
      });
      list.reload();
      return undefined;
    } catch (err) {
      if (err instanceof ApiError && err.status === 400) return scheduleMessageForPeople(err.message);
      if (err instanceof ApiError && err.status === 409 && adminPostConflictDetailsSchema.safeParse(err.details).success) {
        // Changed since the list loaded (an edit elsewhere, the webhook): show the post as it is now.
        setToSchedule(null);
        notify.error('This post was changed elsewhere', { description: 'The list now shows its latest version; schedule it again if you still want to.' });
        list.reload();
        return undefined;
      }
      if (err instanceof ApiError && err.status === 401) return undefined;
      return errorMessage(err, 'Error scheduling post. Please try again.');
    }
  }

  async function onDelete() {
    if (!toDelete) return;
    setDeleting(true);
    try {
      await deletePost(toDelete.id);
      notify.success('Post deleted', { description: `“${toDelete.title}” was removed.` });
      setToDelete(null);
      setDeletions((n) => n + 1);
      list.reload();
    } catch (err) {
      setToDelete(null);
      if (!(err instanceof ApiError && err.status === 401)) notify.error('Error deleting post. Please try again.');
    } finally {
      setDeleting(false);
    }
  }

  const data = list.data;
  const counts = data?.counts;
  const allCount = counts ? counts.draft + counts.scheduled + counts.published + counts.archived : undefined;
  const filtered = !!q || !!status;

  return (
    <div className="space-y-6">
      <AdminPageHeader
        heading={adminPages.posts.heading}
        lead="Every post, drafts, scheduled and archived ones included."
        actions={<ButtonLink to={adminPages.createPost.path}>Create Post</ButtonLink>}
      />

      <section aria-labelledby="posts-heading" className="rounded-2xl border border-border bg-surface p-4 shadow-sm sm:p-6">
        <h2 id="posts-heading" className="sr-only">
          All posts
        </h2>
        <form role="search" className="grid gap-3 sm:grid-cols-[1fr_14rem]" onSubmit={(e) => e.preventDefault()}>
          <div>
            <label htmlFor="post-search" className="text-sm font-semibold text-fg">
              Search posts
            </label>
            <input
              id="post-search"
              type="search"
              value={search}
              onChange={(e) => setSearch(e.target.value)}
              placeholder="Title, excerpt or category"
              className={controlClass}
            />
          </div>
          <div>
            <label htmlFor="post-status" className="text-sm font-semibold text-fg">
              Status
            </label>
            <select id="post-status" value={status ?? ''} onChange={(e) => setStatus(e.target.value)} className={controlClass}>
              <option value="">All statuses{allCount !== undefined ? ` (${allCount})` : ''}</option>
              {POST_STATUSES.map((s) => (
                <option key={s} value={s}>
                  {statusLabel(s)}
                  {counts ? ` (${counts[s]})` : ''}
                </option>
              ))}
            </select>
          </div>
        </form>

        <div className="mt-5">
          {list.error && !data ? (
            <LoadFailed title="Could not load the posts" message={errorMessage(list.error, 'The server did not answer.')} onRetry={list.reload} />
          ) : !data ? (
            <LoadingRows label="Loading posts…" rows={4} />
          ) : data.posts.length === 0 ? (
            <div className="rounded-xl border border-dashed border-border p-8 text-center">
              <p className="font-semibold text-fg">{filtered ? 'No posts match these filters' : 'No posts yet'}</p>
              <p className="mt-1 text-sm text-muted-fg">{filtered ? 'Try other words or another status.' : 'Write the first one, or send one from n8n.'}</p>
              {filtered ? (
                <Button
                  variant="secondary"
                  size="sm"
                  className="mt-4"
                  onClick={() => {
                    setSearch('');
                    setParams(new URLSearchParams());
                  }}
                >
                  Clear filters
                </Button>
              ) : (
                <ButtonLink to={adminPages.createPost.path} size="sm" className="mt-4">
                  Create Post
                </ButtonLink>
              )}
            </div>
          ) : (
            <>
              <p className="mb-3 text-sm text-muted-fg" aria-live="polite" aria-busy={list.loading || undefined}>
                Showing {(data.page - 1) * data.limit + 1}–{(data.page - 1) * data.limit + data.posts.length} of {data.total} {data.total === 1 ? 'post' : 'posts'}
              </p>
              <ul className="divide-y divide-border overflow-hidden rounded-xl border border-border">
                {data.posts.map((post) => (
                  <li key={post.id} className="flex flex-col gap-3 bg-surface p-4 lg:flex-row lg:items-center lg:justify-between">
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
                          View{' '}<span className="sr-only">“{post.title}” on the blog</span>
                        </ButtonLink>
                      )}
                      <ButtonLink to={editPostPath(post.id)} variant="secondary" size="sm">
                        Edit{' '}<span className="sr-only">“{post.title}”</span>
                      </ButtonLink>
                      {post.status === 'draft' && (
                        <>
                          <Button size="sm" onClick={() => onPublish(post)} disabled={publishing === post.id} aria-busy={publishing === post.id || undefined}>
                            {publishing === post.id ? 'Publishing…' : 'Publish'}
                            {' '}<span className="sr-only">“{post.title}”</span>
                          </Button>
                          <Button variant="secondary" size="sm" onClick={() => setToSchedule(post)}>
                            Schedule{' '}<span className="sr-only">“{post.title}”</span>
                          </Button>
                        </>
                      )}
                      {post.status === 'scheduled' && (
                        <>
                          <Button size="sm" onClick={() => onPublish(post)} disabled={publishing === post.id} aria-busy={publishing === post.id || undefined}>
                            {publishing === post.id ? 'Publishing…' : 'Publish now'}
                            {' '}<span className="sr-only">“{post.title}”</span>
                          </Button>
                          <Button
                            variant="secondary"
                            size="sm"
                            onClick={() => onUnschedule(post)}
                            disabled={unscheduling === post.id}
                            aria-busy={unscheduling === post.id || undefined}
                          >
                            {unscheduling === post.id ? 'Unscheduling…' : 'Unschedule'}
                            {' '}<span className="sr-only">“{post.title}”</span>
                          </Button>
                        </>
                      )}
                      <Button variant="danger" size="sm" onClick={() => setToDelete(post)}>
                        Delete{' '}<span className="sr-only">“{post.title}”</span>
                      </Button>
                    </div>
                  </li>
                ))}
              </ul>
              {data.total > data.limit && (
                <nav aria-label="Pages of posts" className="mt-4 flex items-center justify-between gap-2">
                  <Button variant="secondary" size="sm" disabled={data.page <= 1} onClick={() => setPage(data.page - 1)}>
                    Previous
                  </Button>
                  <span className="text-sm text-muted-fg">
                    Page {data.page} of {Math.ceil(data.total / data.limit)}
                  </span>
                  <Button variant="secondary" size="sm" disabled={data.page * data.limit >= data.total} onClick={() => setPage(data.page + 1)}>
                    Next
                  </Button>
                </nav>
              )}
            </>
          )}
        </div>
      </section>

      <RecentlyDeleted version={deletions} onRestored={() => list.reload()} />

      <WebhookDocs />

      <ScheduleDialog
        open={toSchedule !== null}
        onOpenChange={(open) => !open && setToSchedule(null)}
        postTitle={toSchedule?.title ?? ''}
        publishAt={toSchedule?.publishAt ?? null}
        onSchedule={onSchedule}
      />

      <ConfirmDialog
        open={toDelete !== null}
        onOpenChange={(open) => !open && setToDelete(null)}
        title="Delete post"
        description={DELETE_FROM_LIST_QUESTION}
        confirmLabel="Delete"
        busyLabel="Deleting…"
        busy={deleting}
        onConfirm={onDelete}
      >
        {toDelete && <p className="mt-3 rounded-lg bg-surface-muted px-3 py-2 text-sm font-semibold text-fg">{toDelete.title}</p>}
      </ConfirmDialog>
    </div>
  );
}
