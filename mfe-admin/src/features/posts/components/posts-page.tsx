import { useState } from 'react';
import type { PostSummary } from '@site/contracts/posts';
import { ButtonLink, notify } from '@site/ui';
import { AdminPageHeader } from '../../../components/admin-page-header';
import { adminPages } from '../../../config/pages';
import { usePostsQuery } from '../api/list-posts';
import { usePostListParams } from '../hooks/use-post-list-params';
import { DELETE_FROM_LIST_QUESTION, DeletePostDialog } from './delete-post-dialog';
import { PostFilters } from './post-filters';
import { PostList } from './post-list';
import { RecentlyDeleted } from './recently-deleted';
import { ScheduleFromListDialog } from './schedule-from-list-dialog';
import { WebhookDocs } from './webhook-docs';

const PAGE_SIZE = 50;

/**
 * /admin/posts: every post (draft, scheduled, published, archived) with status, category, dates and views; search
 * and a status filter kept in the URL; Edit, Publish and Schedule (drafts), Publish now and Unschedule (scheduled
 * posts) and Delete per post; the posts deleted in the last 30 days; the webhook documentation.
 */
export function PostsPage() {
  const params = usePostListParams();
  const list = usePostsQuery({ q: params.q || undefined, status: params.status, cursor: params.cursor, limit: PAGE_SIZE });
  const [toSchedule, setToSchedule] = useState<PostSummary | null>(null);
  const [toDelete, setToDelete] = useState<PostSummary | null>(null);

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
        <PostFilters params={params} counts={list.data?.counts} />
        <div className="mt-5">
          <PostList list={list} params={params} onSchedule={setToSchedule} onDelete={setToDelete} />
        </div>
      </section>

      <RecentlyDeleted />

      <WebhookDocs />

      <ScheduleFromListDialog post={toSchedule} onClose={() => setToSchedule(null)} />

      <DeletePostDialog
        post={toDelete}
        question={DELETE_FROM_LIST_QUESTION}
        onClose={() => setToDelete(null)}
        onDeleted={(post) => {
          notify.success('Post deleted', { description: `“${post.title}” was removed.` });
          setToDelete(null);
        }}
      />
    </div>
  );
}
