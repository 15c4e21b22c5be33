import { ADMIN_MESSAGES } from '@site/contracts/admin';
import { ApiError, notify } from '@site/ui';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { useDeletePostMutation } from '../api/delete-post';

export const DELETE_FROM_LIST_QUESTION = 'Are you sure you want to delete this post?';
export const DELETE_FROM_EDIT_QUESTION = 'Are you sure you want to delete this post? This action cannot be undone.';

/**
 * 'Delete post', asked with the spec's question of the screen (`question`) and the post's title. On a failure the
 * dialog closes and a toast says so; the edit screen names a post that no longer exists (`sayNotFound`).
 */
export function DeletePostDialog({
  post,
  question,
  sayNotFound = false,
  onClose,
  onDeleted,
}: {
  /** The post to delete; null while the dialog is closed. */
  post: { id: string; title: string } | null;
  question: string;
  sayNotFound?: boolean;
  onClose: () => void;
  onDeleted: (post: { id: string; title: string }) => void;
}) {
  const remove = useDeletePostMutation();
  const onConfirm = () => {
    if (!post) return;
    remove.mutate(post.id, {
      onSuccess: () => onDeleted(post),
      onError: (err) => {
        onClose();
        if (err instanceof ApiError && err.status === 401) return;
        notify.error(sayNotFound && err instanceof ApiError && err.status === 404 ? ADMIN_MESSAGES.postNotFound : 'Error deleting post. Please try again.');
      },
    });
  };
  return (
    <ConfirmDialog
      open={post !== null}
      onOpenChange={(open) => !open && onClose()}
      title="Delete post"
      description={question}
      confirmLabel="Delete"
      busyLabel="Deleting…"
      busy={remove.isPending}
      onConfirm={onConfirm}
    >
      {post && <p className="mt-3 rounded-lg bg-surface-muted px-3 py-2 text-sm font-semibold text-fg">{post.title}</p>}
    </ConfirmDialog>
  );
}
