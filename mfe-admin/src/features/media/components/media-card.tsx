import { useId, useState, type FormEvent } from 'react';
import { Link } from 'react-router-dom';
import { MEDIA_ALT_MAX, type MediaItem } from '@site/contracts/media';
import { ApiError, Button, notify } from '@site/ui';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { controlClass } from '../../../components/form-field';
import { editPostPath } from '../../../config/pages';
import { errorMessage } from '../../../lib/admin-request';
import { useDeleteMediaMutation } from '../api/delete-media';
import { useUpdateMediaAltMutation } from '../api/update-media-alt';
import { useFollowProcessing } from '../hooks/use-follow-processing';
import { MediaThumb } from './media-thumb';

const FIELD_LABEL = { featuredImage: 'featured image', ogImage: 'OG image' } as const;

function formatBytes(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${(bytes / 1024 / 1024).toFixed(1)} MB` : `${Math.max(1, Math.round(bytes / 1024))} KB`;
}

/**
 * One image of the library: thumbnail (or its processing, followed until done, or why it failed), size, alt text
 * (saved on its own), the posts using it, and delete.
 */
export function MediaCard({ media }: { media: MediaItem }) {
  const altId = useId();
  const [alt, setAlt] = useState(media.alt);
  const [confirm, setConfirm] = useState(false);
  const update = useUpdateMediaAltMutation();
  const remove = useDeleteMediaMutation();
  useFollowProcessing(media);
  const used = media.usedBy.length > 0;
  const name = media.alt || media.filename;

  const failed = (fallback: string) => (err: unknown) => {
    if (!(err instanceof ApiError && err.status === 401)) notify.error(errorMessage(err, fallback));
  };

  function saveAlt(e: FormEvent) {
    e.preventDefault();
    update.mutate(
      { id: media.id, alt },
      {
        onSuccess: (updated) => {
          setAlt(updated.alt);
          notify.success('Alt text saved');
        },
        onError: failed('Could not save the alt text.'),
      },
    );
  }

  const onDelete = () =>
    remove.mutate(media.id, {
      onSuccess: () => {
        setConfirm(false);
        notify.success('Image deleted');
      },
      onError: (err) => {
        setConfirm(false);
        failed('Could not delete the image.')(err);
      },
    });

  return (
    <li tabIndex={-1} className="flex flex-col overflow-hidden rounded-xl border border-border bg-surface focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-ring">
      <MediaThumb media={media} />
      <div className="flex flex-1 flex-col gap-3 p-3 text-sm">
        <div>
          <p className="truncate font-semibold text-fg" title={media.filename}>
            {media.filename}
          </p>
          <p className="text-muted-fg">
            {media.width}×{media.height} · {media.format.toUpperCase()} · {formatBytes(media.bytes)}
          </p>
        </div>
        <form onSubmit={saveAlt} className="space-y-2">
          <label htmlFor={altId} className="font-semibold text-fg">
            Alt text
          </label>
          <input id={altId} value={alt} maxLength={MEDIA_ALT_MAX} onChange={(e) => setAlt(e.target.value)} placeholder="Describe the image" className={controlClass} />
          <Button type="submit" size="sm" variant="secondary" disabled={update.isPending || alt.trim() === media.alt} aria-busy={update.isPending || undefined}>
            {update.isPending ? 'Saving…' : 'Save alt text'}
          </Button>
        </form>
        <div>
          <p className="font-semibold text-fg">Used by</p>
          {used ? (
            <ul className="mt-1 space-y-1">
              {media.usedBy.map((use) => (
                <li key={`${use.id}-${use.field}`}>
                  {use.deleted ? (
                    <span className="text-fg">{use.title}</span>
                  ) : (
                    <Link to={editPostPath(use.id)} className="text-primary underline-offset-2 hover:underline dark:text-blue-300">
                      {use.title}
                    </Link>
                  )}{' '}
                  <span className="text-muted-fg">
                    ({FIELD_LABEL[use.field]}
                    {use.deleted ? '; a deleted post, restorable under Posts, Recently deleted' : ''})
                  </span>
                </li>
              ))}
            </ul>
          ) : (
            <p className="text-muted-fg">No post.</p>
          )}
        </div>
        <div className="mt-auto border-t border-border pt-3">
          <Button size="sm" variant="danger" disabled={used} onClick={() => setConfirm(true)} aria-label={`Delete ${name}`}>
            Delete
          </Button>
          {used && <p className="mt-1 text-xs text-muted-fg">In use: choose another image in those posts before deleting it.</p>}
        </div>
      </div>
      <ConfirmDialog
        open={confirm}
        onOpenChange={setConfirm}
        title="Delete image"
        description={`Delete ${name}? Its files are removed for good.`}
        confirmLabel="Delete"
        busyLabel="Deleting…"
        busy={remove.isPending}
        onConfirm={onDelete}
      />
    </li>
  );
}
