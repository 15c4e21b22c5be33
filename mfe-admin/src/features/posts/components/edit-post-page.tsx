import { useParams } from 'react-router-dom';
import { ADMIN_MESSAGES } from '@site/contracts/admin';
import { ApiError, ButtonLink } from '@site/ui';
import { LoadFailed, LoadingRows } from '../../../components/load-state';
import { adminPages } from '../../../config/pages';
import { usePostQuery } from '../api/get-post';
import { PostEditor } from './post-editor';

/**
 * /admin/posts/:id/edit: loads the post (any status), then the same form as Create. The form starts from the version
 * this visit loaded, never from one cached by an earlier visit (a save would name an old updatedAt).
 */
export function EditPostPage() {
  const { id = '' } = useParams();
  const { data: post, error, isFetching, isFetchedAfterMount, refetch } = usePostQuery(id);

  if (error instanceof ApiError && error.status === 404) {
    return (
      <div className="rounded-2xl border border-border bg-surface p-8 text-center shadow-sm">
        <h1 className="text-2xl font-bold text-fg">{ADMIN_MESSAGES.postNotFound}</h1>
        <p className="mt-2 text-muted-fg">It may have been deleted, or the link is wrong.</p>
        <ButtonLink to={adminPages.posts.path} className="mt-6">
          Back to Blog Posts
        </ButtonLink>
      </div>
    );
  }
  if (post && post.id === id && isFetchedAfterMount) return <PostEditor key={post.id} post={post} />;
  if (error && !isFetching) {
    return (
      <div>
        <h1 className="mb-4 text-2xl font-bold text-fg">Edit Post</h1>
        <LoadFailed title="Error fetching post. Please try again." onRetry={() => void refetch()} />
      </div>
    );
  }
  return (
    <div>
      <h1 className="mb-4 text-2xl font-bold text-fg">Edit Post</h1>
      <LoadingRows label="Loading the post…" rows={6} />
    </div>
  );
}
