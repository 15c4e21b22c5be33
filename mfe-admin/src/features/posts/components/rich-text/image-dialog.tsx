import type { Editor } from '@tiptap/core';
import { useId, useState, type FormEvent } from 'react';
import { MEDIA_ALT_MAX, type MediaItem } from '@site/contracts/media';
import { Button, cn } from '@site/ui';
import { controlClass } from '../../../../components/form-field';
import { LoadFailed, LoadingRows } from '../../../../components/load-state';
import { errorMessage } from '../../../../lib/admin-request';
import { useLibraryImagesQuery } from '../../api/list-library-images';
import { EditorDialog, EditorDialogCancel } from './editor-dialog';

/** What the dialog does: insert an image from the library, or change the alt text of the image selected in the text. */
export type ImageTarget = { mode: 'insert' } | { mode: 'edit'; src: string; alt: string };

export function imageTargetOf(editor: Editor): ImageTarget {
  if (!editor.isActive('image')) return { mode: 'insert' };
  const attrs = editor.getAttributes('image') as { src?: string; alt?: string | null };
  return { mode: 'edit', src: attrs.src ?? '', alt: attrs.alt ?? '' };
}

/** The smallest stored WebP that fills a thumbnail, else the image itself. */
const thumbOf = (m: MediaItem) => m.variants.find((v) => v.format === 'webp' && v.width === 480)?.url ?? m.url;

/**
 * Puts an image from the media library in the post, with its alt text: the library's pictures to choose from (radio
 * buttons, so arrows move between them), the alt text filled from the chosen image's and editable. With an image
 * selected in the text it edits that image's alt text instead.
 */
export function ImageDialog({ editor, target, onClose }: { editor: Editor; target: ImageTarget | null; onClose: () => void }) {
  const editing = target?.mode === 'edit';
  return (
    <EditorDialog
      open={target !== null}
      onClose={onClose}
      onClosed={() => editor.commands.focus()}
      wide={!editing}
      title={editing ? 'Image description' : 'Insert an image'}
      description={
        editing
          ? 'The alt text: what the image shows, for readers who cannot see it.'
          : 'Choose an image from the media library (upload new ones on the Media screen), then describe it for readers who cannot see it.'
      }
    >
      {target?.mode === 'insert' && <ImagePicker editor={editor} onDone={onClose} />}
      {target?.mode === 'edit' && <AltForm editor={editor} initial={target.alt} src={target.src} onDone={onClose} />}
    </EditorDialog>
  );
}

function AltField({ id, value, onChange }: { id: string; value: string; onChange: (alt: string) => void }) {
  return (
    <div>
      <label htmlFor={id} className="text-sm font-semibold text-fg">
        Alt text
      </label>
      <input id={id} type="text" value={value} maxLength={MEDIA_ALT_MAX} onChange={(e) => onChange(e.target.value)} aria-describedby={`${id}-hint`} className={controlClass} />
      <p id={`${id}-hint`} className="mt-1.5 text-xs text-muted-fg">
        E.g. &ldquo;Stylist trimming a client&apos;s hair at the front window&rdquo;. Leave it empty only for a purely decorative image.
      </p>
    </div>
  );
}

function Actions({ submit, disabled }: { submit: string; disabled?: boolean }) {
  return (
    <div className="mt-5 flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
      <EditorDialogCancel />
      <Button type="submit" aria-disabled={disabled || undefined}>
        {submit}
      </Button>
    </div>
  );
}

function AltForm({ editor, initial, src, onDone }: { editor: Editor; initial: string; src: string; onDone: () => void }) {
  const id = useId();
  const [alt, setAlt] = useState(initial);
  function onSubmit(e: FormEvent) {
    e.preventDefault();
    e.stopPropagation();
    editor.chain().focus().updateAttributes('image', { alt: alt.trim() }).run();
    onDone();
  }
  return (
    <form noValidate onSubmit={onSubmit} className="mt-4">
      <img src={src} alt="" className="mb-4 max-h-48 w-full rounded-lg bg-surface-muted object-contain" />
      <AltField id={id} value={alt} onChange={setAlt} />
      <Actions submit="Save" />
    </form>
  );
}

function ImagePicker({ editor, onDone }: { editor: Editor; onDone: () => void }) {
  const id = useId();
  const library = useLibraryImagesQuery(true);
  const [chosen, setChosen] = useState<MediaItem | null>(null);
  const [alt, setAlt] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const images = (library.data?.pages.flatMap((p) => p.media) ?? []).filter((m) => m.state !== 'failed');

  function choose(item: MediaItem) {
    setChosen(item);
    setAlt(item.alt);
    setProblem(null);
  }

  function onSubmit(e: FormEvent) {
    e.preventDefault();
    e.stopPropagation();
    if (!chosen) {
      setProblem('Choose an image first.');
      return;
    }
    editor
      .chain()
      .focus()
      .insertContent([{ type: 'image', attrs: { src: chosen.url, alt: alt.trim(), width: chosen.width, height: chosen.height } }, { type: 'paragraph' }])
      .run();
    onDone();
  }

  if (!library.data) {
    return library.error ? (
      <LoadFailed title="Could not load the images" message={errorMessage(library.error, 'The server did not answer.')} onRetry={() => void library.refetch()} />
    ) : (
      <LoadingRows label="Loading images…" rows={2} />
    );
  }
  if (images.length === 0) {
    return <p className="mt-4 rounded-xl border border-dashed border-border p-6 text-center text-sm text-muted-fg">No images yet. Upload them on the Media screen, then come back.</p>;
  }

  return (
    <form noValidate onSubmit={onSubmit} className="mt-4 flex min-h-0 flex-col">
      <fieldset className="min-h-0">
        <legend className="sr-only">Image</legend>
        <ul className="grid max-h-[45dvh] grid-cols-2 gap-2 overflow-y-auto p-1 sm:grid-cols-3 md:grid-cols-4">
          {images.map((item) => (
            <li key={item.id}>
              <label
                className={cn(
                  'relative block cursor-pointer overflow-hidden rounded-lg border-2 bg-bg has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-offset-2 has-[:focus-visible]:outline-ring',
                  chosen?.id === item.id ? 'border-primary' : 'border-border hover:border-muted-fg',
                )}
              >
                {/* The radio covers its card, unseen: a click anywhere on the picture chooses it. */}
                <input
                  type="radio"
                  name={`${id}-image`}
                  value={item.id}
                  checked={chosen?.id === item.id}
                  onChange={() => choose(item)}
                  className="absolute inset-0 z-10 m-0 h-full w-full cursor-pointer appearance-none opacity-0"
                />
                <img src={thumbOf(item)} alt="" loading="lazy" decoding="async" className="aspect-[4/3] w-full bg-surface-muted object-cover" />
                {chosen?.id === item.id && (
                  <span aria-hidden="true" className="absolute right-1.5 top-1.5 rounded-full bg-primary p-1 text-primary-fg shadow">
                    <svg viewBox="0 0 24 24" className="h-4 w-4" fill="none" stroke="currentColor" strokeWidth="3" strokeLinecap="round" strokeLinejoin="round">
                      <path d="M5 12.5l4.5 4.5L19 7.5" />
                    </svg>
                  </span>
                )}
                <span className="block truncate px-2 py-1 text-xs text-fg">{item.alt || item.filename}</span>
              </label>
            </li>
          ))}
        </ul>
      </fieldset>
      {library.hasNextPage && (
        <Button variant="secondary" size="sm" className="mt-2 self-center" onClick={() => void library.fetchNextPage()} aria-busy={library.isFetchingNextPage || undefined}>
          {library.isFetchingNextPage ? 'Loading images…' : 'Load more images'}
        </Button>
      )}
      {problem && (
        <p role="alert" className="mt-3 text-sm font-medium text-danger">
          {problem}
        </p>
      )}
      <div className="mt-4">{chosen && <AltField id={`${id}-alt`} value={alt} onChange={setAlt} />}</div>
      <Actions submit="Insert image" disabled={!chosen} />
    </form>
  );
}
