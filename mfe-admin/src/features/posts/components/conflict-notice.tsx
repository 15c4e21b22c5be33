import { useQueryClient } from '@tanstack/react-query';
import { ADMIN_MESSAGES } from '@site/contracts/admin';
import { Button, notify } from '@site/ui';
import { formatDateTime } from '../../../lib/format';
import type { PostEditorState } from '../hooks/use-post-editor';
import { sameValues, valuesFromPost } from '../lib/post-form-values';
import { postKeys } from '../lib/post-queries';

/**
 * A 409 answer: someone else changed the post meanwhile, and nothing was overwritten. Reloading loads their version;
 * the writer's own stays on this device and is offered at once, so nothing typed is lost.
 */
export function ConflictNotice({ editor }: { editor: PostEditorState }) {
  const client = useQueryClient();
  const { conflict, conflictRef, setConflict, values, resetTo, autosave } = editor;
  if (!conflict) return null;

  function reloadLatest() {
    if (!conflict) return;
    const mine = values;
    client.setQueryData(postKeys.detail(conflict.id), conflict);
    resetTo(conflict);
    setConflict(null);
    if (!sameValues(mine, valuesFromPost(conflict))) autosave.keepAndOffer(mine);
    notify.info('Loaded the latest version of the post');
  }

  return (
    <div ref={conflictRef} tabIndex={-1} role="alert" className="mb-5 rounded-xl focus:outline-2 focus:outline-ring border border-warning/50 bg-warning-soft p-4 text-sm text-fg">
      <p className="font-semibold">Someone else changed this post while you were editing it.</p>
      <p className="mt-1">
        {ADMIN_MESSAGES.postConflict} It was last changed {formatDateTime(conflict.updatedAt)}
        {conflict.source === 'n8n' ? ' (it came from the n8n webhook)' : ''}. Your changes were not saved, so nothing was overwritten; when you
        reload, your version is kept on this device and you can restore it.
      </p>
      <div className="mt-3 flex flex-wrap gap-2">
        <Button size="sm" onClick={reloadLatest}>
          Reload the latest version
        </Button>
        <Button size="sm" variant="secondary" onClick={() => setConflict(null)}>
          Keep editing
        </Button>
      </div>
    </div>
  );
}
