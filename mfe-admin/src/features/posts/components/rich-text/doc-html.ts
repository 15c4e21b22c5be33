import { createDocument, isNodeEmpty, type Editor } from '@tiptap/core';
import { DOMSerializer, Fragment, type Node as PMNode } from '@tiptap/pm/model';

/** An inert document to serialize in: an <img> made in the page's own document would start downloading its picture. */
let inert: Document | null = null;

/**
 * Each top-level block's HTML, by the block: ProseMirror's nodes never change, and a transaction keeps every block it
 * did not touch, so typing in a long post serializes the one block typed in, not the whole post per write.
 */
const blockHtml = new WeakMap<PMNode, string>();

function htmlOfBlock(node: PMNode, editor: Editor): string {
  let html = blockHtml.get(node);
  if (html === undefined) {
    inert ??= document.implementation.createHTMLDocument('');
    const container = inert.createElement('div');
    container.append(DOMSerializer.fromSchema(editor.schema).serializeFragment(Fragment.from(node), { document: inert }));
    html = Array.from(container.children, (el) => el.outerHTML).join('\n');
    blockHtml.set(node, html);
  }
  return html;
}

/**
 * A document as the form keeps it: one top-level block a line (readable in the HTML view and in a revision's diff),
 * without the empty paragraphs the editor keeps at the end for the cursor, and '' when there is nothing.
 */
export function docHtml(doc: PMNode, editor: Editor): string {
  if (isNodeEmpty(doc)) return '';
  const blocks: PMNode[] = [];
  doc.forEach((node) => blocks.push(node));
  while (blocks.length > 0 && blocks.at(-1)!.type.name === 'paragraph' && blocks.at(-1)!.childCount === 0) blocks.pop();
  return blocks
    .map((node) => htmlOfBlock(node, editor))
    .filter((html) => html !== '')
    .join('\n');
}

/** HTML read into the editor's schema and written back as docHtml writes: what the editor would make of it. */
export const htmlAsEditorWrites = (html: string, editor: Editor) => docHtml(createDocument(html, editor.schema), editor);
