import { lazy, memo, Suspense, useEffect, useId, useMemo, useRef, useState } from 'react';
import { useFormContext, useWatch } from 'react-hook-form';
import { cn } from '@site/ui';
import type { PostFormState } from '../lib/post-form-schema';
import { elementsTheEditorDrops } from '../lib/rich-text-html';

// The editor (Tiptap and ProseMirror, most of this screen's code) is its own chunk, asked for as soon as this module
// runs, that is when the create or edit screen loads: it downloads beside the post, and the other screens never load it.
const loadEditor = () => import('./rich-text/rich-text-editor');
if (typeof window !== 'undefined') void loadEditor().catch(() => undefined);
const RichTextEditor = lazy(loadEditor);

const RICH_HINT = 'Headings, lists, links, quotes and images from the media library; the toolbar names each shortcut. Pasting from Word or Google Docs keeps headings, lists and links.';
const HTML_HINT = 'HTML: headings (<h2>, <h3>), paragraphs, lists, links, images, quotes, code and tables. Scripts, styles and embeds are removed.';

/** The frame's place while the editor's code loads: the size of the editor, saying so. */
function EditorLoading() {
  return (
    <div role="status" aria-live="polite" className="animate-pulse motion-reduce:animate-none">
      <div className="flex gap-1 rounded-t-[calc(var(--radius-lg)-1px)] border-b border-border bg-surface-muted p-1.5" aria-hidden="true">
        {Array.from({ length: 9 }, (_, i) => (
          <span key={i} className="h-9 w-9 rounded-md bg-border/60" />
        ))}
      </div>
      <div className="min-h-[20rem] space-y-3 px-4 py-4 sm:px-5">
        <span className="sr-only">Loading the editor…</span>
        <span aria-hidden="true" className="block h-4 w-3/4 rounded bg-border/60" />
        <span aria-hidden="true" className="block h-4 w-5/6 rounded bg-border/60" />
        <span aria-hidden="true" className="block h-4 w-2/3 rounded bg-border/60" />
      </div>
    </div>
  );
}

/**
 * The post's Content: a rich-text editor (toolbar, shortcuts, paste from Word and Google Docs) or, with "HTML"
 * pressed, the HTML itself in a textarea; both read and write the form's `content`, so autosave, the conflict notice,
 * revisions and the preview see one value. The length beside the label counts the HTML, as the rules do. A post whose
 * HTML holds what the editor cannot show (a figure, a table caption) opens in the HTML view and says why.
 */
export const ContentField = memo(function ContentField({ onEdit }: { onEdit: () => void }) {
  const { register, getValues, formState } = useFormContext<PostFormState>();
  const id = useId();
  const [labelId, areaId, hintId, errorId] = [`${id}-label`, `${id}-area`, `${id}-hint`, `${id}-error`];
  const error = formState.errors.content?.message;
  // `toggled`: the writer switched views, so the view that opens takes the focus (not on the page's first render).
  const [view, setView] = useState(() => ({ html: elementsTheEditorDrops(getValues('content')).length > 0, toggled: false }));
  const html = view.html;
  // The editor keeps one onEdit for its life: this one always calls the form's latest.
  const latestOnEdit = useRef(onEdit);
  useEffect(() => {
    latestOnEdit.current = onEdit;
  });
  const [stableOnEdit] = useState(() => () => latestOnEdit.current());
  const describedBy = [error ? errorId : '', hintId].filter(Boolean).join(' ');

  return (
    <div>
      <div className="flex flex-wrap items-end justify-between gap-x-3 gap-y-2">
        <label
          id={labelId}
          htmlFor={html ? areaId : undefined}
          // In rich text the area is no form control: the label still takes the writer there.
          onClick={() => document.getElementById(areaId)?.focus()}
          className="text-sm font-semibold text-fg"
        >
          Content <span className="font-normal text-muted-fg">(required)</span>
        </label>
        <div className="flex items-center gap-3">
          <ContentLength />
          <button
            type="button"
            aria-pressed={html}
            title={html ? 'Back to the editor' : 'Edit the HTML'}
            onClick={() => setView({ html: !html, toggled: true })}
            className="inline-flex h-8 cursor-pointer items-center gap-1.5 rounded-md border border-border bg-surface px-2.5 font-mono text-xs font-semibold text-fg hover:bg-surface-muted focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-ring aria-pressed:border-primary aria-pressed:bg-primary aria-pressed:text-primary-fg"
          >
            <span aria-hidden="true">&lt;/&gt;</span>
            HTML
          </button>
        </div>
      </div>
      <DroppedElements />
      <div
        className={cn(
          'mt-1.5 rounded-lg border bg-bg text-fg shadow-sm',
          'has-[.ProseMirror-focused]:border-primary has-[.ProseMirror-focused]:outline-2 has-[.ProseMirror-focused]:outline-ring',
          error ? 'border-danger' : 'border-border',
        )}
      >
        {html ? (
          <textarea
            id={areaId}
            rows={16}
            {...register('content', { onChange: onEdit })}
            // Leaving the editor for its HTML: the writer goes on there.
            autoFocus={view.toggled}
            spellCheck={false}
            required
            aria-required
            aria-invalid={error ? true : undefined}
            aria-describedby={describedBy}
            className="block w-full resize-y rounded-lg bg-bg px-3 py-2.5 font-mono text-sm text-fg focus:outline-2 focus:-outline-offset-2 focus:outline-ring"
          />
        ) : (
          <Suspense fallback={<EditorLoading />}>
            <RichTextEditor id={areaId} labelId={labelId} describedBy={describedBy} invalid={Boolean(error)} onEdit={stableOnEdit} autoFocus={view.toggled} />
          </Suspense>
        )}
      </div>
      {error && (
        <p id={errorId} className="mt-1.5 text-sm font-medium text-danger">
          {error}
        </p>
      )}
      <p id={hintId} className="mt-1.5 text-xs text-muted-fg">
        {html ? HTML_HINT : RICH_HINT}
      </p>
    </div>
  );
});

/**
 * The parts that follow the content as it changes, each watching it on its own: a change of the content (each edit
 * in the editor) renders these, not the field with its editor.
 */
function ContentLength() {
  const content = useWatch<PostFormState, 'content'>({ name: 'content' });
  return <span className="text-xs text-muted-fg">{`${content.trim().length} / 100+ characters`}</span>;
}

/** What the editor cannot show, while the content has it. */
function DroppedElements() {
  const content = useWatch<PostFormState, 'content'>({ name: 'content' });
  const drops = useMemo(() => elementsTheEditorDrops(content), [content]);
  if (drops.length === 0) return null;
  return (
    <p className="mt-2 rounded-lg bg-warning-soft px-3 py-2 text-sm text-fg">
      This post&apos;s HTML has {drops.map((d) => `<${d}>`).join(', ')}, which the editor cannot show: edit it in the HTML view, or it is dropped by a change in the editor.
    </p>
  );
}
