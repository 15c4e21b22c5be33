import { Mark, type AnyExtension } from '@tiptap/core';
import Image from '@tiptap/extension-image';
import Link from '@tiptap/extension-link';
import { Table, TableCell, TableHeader, TableRow } from '@tiptap/extension-table';
import { Placeholder } from '@tiptap/extensions';
import StarterKit from '@tiptap/starter-kit';
import { SAFE_LINK } from '../../lib/clean-pasted-html';

/**
 * The editor's schema is the server's allow-list (api/src/posts/sanitize-post-html.ts) and nothing more: headings h2
 * to h6, paragraphs, lists, links, images, quotes, code, tables, rules, bold, italic, strike, sub/sup, mark and small.
 * Underline (<u>) is off, since the sanitizer would drop it; nothing writes a class or a style the server would strip.
 */

/** A mark that is one tag and nothing else (the sanitizer keeps these tags, with no attribute). */
const tagMark = (name: string, tag: string) => Mark.create({ name, parseHTML: () => [{ tag }], renderHTML: () => [tag, 0] });

/**
 * Links: only the addresses the server keeps (http(s), mailto, tel, a site path or an anchor); a click in the editor
 * places the cursor rather than leaving the page. No class, and no rel: the server gives every link its
 * rel="noopener noreferrer", so a saved post reads back into the same document as the one edited.
 */
const PostLink = Link.extend({
  addAttributes() {
    return {
      ...this.parent?.(),
      rel: { default: null, parseHTML: () => null, renderHTML: () => ({}) },
      class: { default: null, parseHTML: () => null, renderHTML: () => ({}) },
    };
  },
}).configure({
  openOnClick: false,
  autolink: true,
  linkOnPaste: true,
  defaultProtocol: 'https',
  HTMLAttributes: { target: null, rel: null, class: null },
  isAllowedUri: (url) => SAFE_LINK.test(url.trim()),
});

/** Tables read from stored posts keep their cells; written back without the colgroup and width style the server drops. */
const PostTable = Table.extend({
  renderHTML: () => ['table', ['tbody', 0]],
});

export function postEditorExtensions({ placeholder }: { placeholder: string }): AnyExtension[] {
  return [
    StarterKit.configure({
      heading: { levels: [2, 3, 4, 5, 6] },
      link: false,
      underline: false,
    }),
    PostLink,
    Image.configure({ inline: false, allowBase64: false }),
    PostTable.configure({ resizable: false }),
    TableRow,
    TableHeader,
    TableCell,
    tagMark('subscript', 'sub'),
    tagMark('superscript', 'sup'),
    tagMark('highlight', 'mark'),
    tagMark('small', 'small'),
    Placeholder.configure({ placeholder }),
  ];
}
