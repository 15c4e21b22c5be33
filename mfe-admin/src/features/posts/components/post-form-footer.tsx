import { Button, ButtonLink } from '@site/ui';
import { adminPages } from '../../../config/pages';
import { formatDateTime } from '../../../lib/format';
import type { PostEditorState } from '../hooks/use-post-editor';

/** Under the fields: whether a draft is kept on this device, Cancel, and Create Post / Save Changes. */
export function PostFormFooter({ editor }: { editor: PostEditorState }) {
  const { autosave, dirty, post, saving } = editor;
  return (
    <div className="flex flex-col-reverse gap-3 sm:flex-row sm:items-center sm:justify-between">
      <p className="text-sm text-muted-fg" aria-live="off">
        {autosave.savedAt ? `Draft kept on this device at ${formatDateTime(autosave.savedAt)}.` : dirty ? 'Unsaved changes.' : post ? 'No unsaved changes.' : ''}
      </p>
      <div className="flex flex-col gap-2 sm:flex-row">
        <ButtonLink variant="secondary" to={adminPages.posts.path}>
          Cancel
        </ButtonLink>
        <Button type="submit" disabled={saving} aria-busy={saving || undefined}>
          {saving ? (post ? 'Saving…' : 'Creating…') : post ? 'Save Changes' : 'Create Post'}
        </Button>
      </div>
    </div>
  );
}
