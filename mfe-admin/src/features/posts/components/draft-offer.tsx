import { useFormContext } from 'react-hook-form';
import { Button } from '@site/ui';
import { formatDateTime } from '../../../lib/format';
import type { PostEditorState } from '../hooks/use-post-editor';
import type { PostFormState } from '../lib/post-form-schema';
import { POST_FORM_FIELDS } from '../lib/post-form-values';

/** Unsaved changes kept on this device (autosave, a conflict, a restore): Restore puts them in the form, Discard drops them. */
export function DraftOffer({ editor }: { editor: PostEditorState }) {
  const { setValue, formState } = useFormContext<PostFormState>();
  const { autosave, post } = editor;
  const offer = autosave.offer;
  if (!offer) return null;

  const restore = () => {
    const restored = autosave.restore();
    if (!restored) return;
    for (const field of POST_FORM_FIELDS) setValue(field, restored[field], { shouldDirty: true, shouldValidate: formState.isSubmitted });
  };

  return (
    <div role="region" aria-label="Unsaved draft" className="mb-5 rounded-xl border border-primary/40 bg-primary-soft p-4 text-sm text-primary-soft-fg">
      <p className="font-semibold">Unsaved changes from {formatDateTime(offer.savedAt)} were found on this device.</p>
      <p className="mt-1">
        Restore them to continue where you left off, or discard them to keep the {post ? 'version saved on the site' : 'empty form'}.
        {post && offer.baseUpdatedAt && offer.baseUpdatedAt !== post.updatedAt && ' The post was changed on the site after this draft was written: saving the restored draft replaces that change.'}
      </p>
      <div className="mt-3 flex flex-wrap gap-2">
        <Button size="sm" onClick={restore}>
          Restore draft
        </Button>
        <Button size="sm" variant="secondary" onClick={autosave.discard}>
          Discard draft
        </Button>
      </div>
    </div>
  );
}
