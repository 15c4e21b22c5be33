import { startTransition, useCallback, useEffect, useRef, useState, type KeyboardEvent, type RefObject } from 'react';
import type { Editor } from '@tiptap/core';
import { useFormContext, useWatch } from 'react-hook-form';
import { cleanPastedHtml } from '../../lib/clean-pasted-html';
import type { PostFormState } from '../../lib/post-form-schema';
import { docHtml, htmlAsEditorWrites } from './doc-html';
import { postEditorExtensions } from './editor-extensions';
import { EditorToolbar } from './editor-toolbar';
import { ImageDialog, imageTargetOf, type ImageTarget } from './image-dialog';
import { LinkDialog, linkTargetOf, type LinkTarget } from './link-dialog';
import { useTiptap, useWarmUp, useWriteAfterPaint } from './use-tiptap';
import './rich-text-editor.css';

export type RichTextEditorProps = {
  /** The editable area's id (the field's label focuses it). */
  id: string;
  /** The "Content" label's id: the area is named by it. */
  labelId: string;
  /** The hint's and the error's ids. */
  describedBy?: string;
  invalid: boolean;
  /** Runs on every change made here (the form drops the server's last verdict). */
  onEdit: () => void;
  /** Take the focus once made (after leaving the HTML view). */
  autoFocus?: boolean;
};

/** The editable area's attributes: a labelled, described multi-line textbox, invalid while the field has an error. */
function editableAttributes({ id, labelId, describedBy, invalid }: Pick<RichTextEditorProps, 'id' | 'labelId' | 'describedBy' | 'invalid'>): Record<string, string> {
  return {
    id,
    role: 'textbox',
    'aria-multiline': 'true',
    'aria-labelledby': labelId,
    'aria-required': 'true',
    ...(describedBy ? { 'aria-describedby': describedBy } : {}),
    ...(invalid ? { 'aria-invalid': 'true' } : {}),
    class: 'post-content rich-text-area min-h-[20rem] px-4 py-3 focus:outline-none sm:px-5',
  };
}

/**
 * The post's content as rich text (Tiptap, on ProseMirror), reading and writing the form's `content` HTML: each change
 * is written with setValue (dirty, and checked again once the form was submitted), as typing in a field would be; a
 * value put in the form from elsewhere (a reset to the saved post, a restored revision or draft, the post after a
 * conflict) is put in the editor, unless it is the same document (the server's copy of what is on screen, with its
 * rel="noopener noreferrer", leaves the cursor where it is). Loaded on its own (React.lazy in content-field.tsx).
 */
export default function RichTextEditor({ id, labelId, describedBy, invalid, onEdit, autoFocus }: RichTextEditorProps) {
  const { getValues, setValue, formState } = useFormContext<PostFormState>();
  /** What the editor holds, as the form's HTML: the last value written or taken. */
  const shown = useRef(getValues('content'));
  const [link, setLink] = useState<LinkTarget | null>(null);
  const [image, setImage] = useState<ImageTarget | null>(null);
  const { editor, mountRef } = useTiptap(() => ({
    extensions: postEditorExtensions({ placeholder: 'Write the post here…' }),
    content: getValues('content'),
    editorProps: { attributes: editableAttributes({ id, labelId, describedBy, invalid }), transformPastedHTML: cleanPastedHtml },
    autofocus: autoFocus ? 'end' : false,
    // rich-text-editor.css carries ProseMirror's few rules, in the theme's colours.
    injectCSS: false,
  }));

  // The field's names and state on the editable area, as they change (an error shown, then fixed).
  useEffect(() => {
    editor.setOptions({ editorProps: { ...editor.options.editorProps, attributes: editableAttributes({ id, labelId, describedBy, invalid }) } });
  }, [editor, id, labelId, describedBy, invalid]);

  /** The form's value as this editor would write it (a value it did not write is parsed once). */
  const foreign = useRef<{ raw: string; html: string } | null>(null);
  const sameAsForm = (value: string) => {
    const raw = shown.current;
    if (value === raw) return true;
    if (foreign.current?.raw !== raw) foreign.current = { raw, html: htmlAsEditorWrites(raw, editor) };
    return value === foreign.current.html;
  };

  // Each change made here goes to the form once it has painted, as an edit (the form drops the server's last verdict;
  // the field is dirty, and checked again once the form was submitted). A change of form alone is none: the stored
  // HTML read into the editor's schema (a <p> in each list item, an empty paragraph kept after a closing list for the
  // cursor) does not make the post unsaved. The re-render that follows (the whole post form watches the content) is a
  // transition, so the next keystroke is not kept waiting either.
  useWriteAfterPaint(editor, () => {
    const value = docHtml(editor.state.doc, editor);
    if (sameAsForm(value)) return;
    shown.current = value;
    // Its own HTML is already in the editor's form: the next comparison parses nothing.
    foreign.current = { raw: value, html: value };
    onEdit();
    startTransition(() => setValue('content', value, { shouldDirty: true, shouldValidate: formState.isSubmitted }));
  });

  // What the first edit would otherwise pay, done while the writer reads: the form's HTML as this editor writes it (the
  // first write compares with it) and the link detector's tables (built on the first space or Enter otherwise).
  useWarmUp(editor, () => {
    if (foreign.current?.raw !== shown.current) foreign.current = { raw: shown.current, html: htmlAsEditorWrites(shown.current, editor) };
  });

  const openLink = useCallback(() => setLink(linkTargetOf(editor)), [editor]);
  const openImage = useCallback(() => setImage(imageTargetOf(editor)), [editor]);
  const closeLink = useCallback(() => setLink(null), []);
  const closeImage = useCallback(() => setImage(null), []);
  /** Mod-K, which no extension of the editor takes, opens the link form. */
  const onKeyDown = (e: KeyboardEvent) => {
    if ((e.metaKey || e.ctrlKey) && !e.altKey && !e.shiftKey && e.key.toLowerCase() === 'k') {
      e.preventDefault();
      openLink();
    }
  };

  return (
    <>
      <FormContentToEditor editor={editor} shownRef={shown} />
      <EditorToolbar editor={editor} onLink={openLink} onImage={openImage} />
      <div ref={mountRef} onKeyDown={onKeyDown} />
      <LinkDialog editor={editor} target={link} onClose={closeLink} />
      <ImageDialog editor={editor} target={image} onClose={closeImage} />
    </>
  );
}

/**
 * A value put in the form from elsewhere goes into the editor (not added to its undo history). The one part that
 * watches the form's content, and renders nothing: a write of the editor's own HTML re-renders no toolbar, editor or
 * dialog. A render of a value the form no longer holds is skipped: typing goes on while the form's transition
 * renders, and the editor is ahead.
 */
function FormContentToEditor({ editor, shownRef }: { editor: Editor; shownRef: RefObject<string> }) {
  const { control, getValues } = useFormContext<PostFormState>();
  const content = useWatch({ control, name: 'content' });
  useEffect(() => {
    if (content === shownRef.current || content !== getValues('content') || editor.isDestroyed) return;
    shownRef.current = content;
    if (htmlAsEditorWrites(content, editor) === docHtml(editor.state.doc, editor)) return;
    editor.chain().setMeta('addToHistory', false).setContent(content, { emitUpdate: false }).run();
  }, [content, editor, getValues, shownRef]);
  return null;
}
