import type { Editor } from '@tiptap/core';
import { useId, useState, type FormEvent } from 'react';
import { Button } from '@site/ui';
import { controlClass } from '../../../../components/form-field';
import { readLinkAddress } from '../../lib/link-address';
import { EditorDialog, EditorDialogCancel } from './editor-dialog';

/** What the form starts from: the link under the cursor, and whether there is text to turn into a link. */
export type LinkTarget = { href: string; hasText: boolean };

export function linkTargetOf(editor: Editor): LinkTarget {
  const href = (editor.getAttributes('link').href as string | undefined) ?? '';
  return { href, hasText: Boolean(href) || !editor.state.selection.empty };
}

/**
 * Adds, changes or removes the link at the cursor. The address is checked as the server checks it (http(s), mailto:,
 * a site path); a bare domain gets https://. With no text selected, the link's text is asked for too (the address
 * when left empty).
 */
export function LinkDialog({ editor, target, onClose }: { editor: Editor; target: LinkTarget | null; onClose: () => void }) {
  return (
    <EditorDialog
      open={target !== null}
      onClose={onClose}
      onClosed={() => editor.commands.focus()}
      title={target?.href ? 'Edit link' : 'Add link'}
      description="Where the link goes: a web address, an e-mail address or a page of this site (/blog/…)."
    >
      {target && <LinkForm editor={editor} target={target} onDone={onClose} />}
    </EditorDialog>
  );
}

function LinkForm({ editor, target, onDone }: { editor: Editor; target: LinkTarget; onDone: () => void }) {
  const id = useId();
  const [address, setAddress] = useState(target.href);
  const [label, setLabel] = useState('');
  const [problem, setProblem] = useState<string | null>(null);

  function onSubmit(e: FormEvent) {
    e.preventDefault();
    e.stopPropagation();
    const read = readLinkAddress(address);
    if ('problem' in read) {
      setProblem(read.problem);
      document.getElementById(`${id}-address`)?.focus();
      return;
    }
    if (target.hasText) {
      editor.chain().focus().extendMarkRange('link').setLink({ href: read.href }).run();
    } else {
      const text = label.trim() || read.href;
      editor
        .chain()
        .focus()
        .insertContent({ type: 'text', text, marks: [{ type: 'link', attrs: { href: read.href } }] })
        .unsetMark('link')
        .run();
    }
    onDone();
  }

  function remove() {
    editor.chain().focus().extendMarkRange('link').unsetLink().run();
    onDone();
  }

  return (
    <form noValidate onSubmit={onSubmit} className="mt-4 space-y-4">
      <div>
        <label htmlFor={`${id}-address`} className="text-sm font-semibold text-fg">
          Link address
        </label>
        <input
          id={`${id}-address`}
          type="text"
          inputMode="url"
          autoComplete="url"
          spellCheck={false}
          placeholder="https://…"
          value={address}
          onChange={(e) => {
            setAddress(e.target.value);
            setProblem(null);
          }}
          aria-invalid={problem ? true : undefined}
          aria-describedby={problem ? `${id}-problem` : undefined}
          className={controlClass}
        />
        {problem && (
          <p id={`${id}-problem`} role="alert" className="mt-1.5 text-sm font-medium text-danger">
            {problem}
          </p>
        )}
      </div>
      {!target.hasText && (
        <div>
          <label htmlFor={`${id}-text`} className="text-sm font-semibold text-fg">
            Link text <span className="font-normal text-muted-fg">(optional)</span>
          </label>
          <input id={`${id}-text`} type="text" value={label} onChange={(e) => setLabel(e.target.value)} aria-describedby={`${id}-text-hint`} className={controlClass} />
          <p id={`${id}-text-hint`} className="mt-1.5 text-xs text-muted-fg">
            The words readers click. Left empty, the address is shown.
          </p>
        </div>
      )}
      <div className="flex flex-col-reverse gap-2 pt-1 sm:flex-row sm:items-center sm:justify-end">
        {target.href && (
          <Button variant="ghost" onClick={remove} className="sm:mr-auto">
            Remove link
          </Button>
        )}
        <EditorDialogCancel />
        <Button type="submit">{target.href ? 'Save link' : 'Add link'}</Button>
      </div>
    </form>
  );
}
