/**
 * The post's HTML between the form and the rich-text editor (components/rich-text/rich-text-editor.tsx). Kept apart
 * from the editor's code, which loads later in its own chunk: the form reads these before it is there.
 */

/** Elements a post may hold (the sanitizer's list) that the editor cannot show: an edit in it would drop them. */
const NOT_IN_EDITOR = ['figure', 'figcaption', 'caption'] as const;
const MAY_HOLD = /<(?:figure|figcaption|caption)\b/i;

/** Which of those the HTML holds, each named once (a cheap test first: this runs on every change of the field). */
export function elementsTheEditorDrops(html: string): string[] {
  if (!MAY_HOLD.test(html)) return [];
  const doc = new DOMParser().parseFromString(html, 'text/html');
  return NOT_IN_EDITOR.filter((tag) => doc.body.querySelector(tag));
}

const EMPTY_PARAGRAPH = '<p></p>';

/** The editor's HTML as the form keeps it: '' when empty, without the empty paragraph kept at the end for the cursor. */
export function formHtml(html: string, empty: boolean): string {
  if (empty) return '';
  let end = html.length;
  while (html.endsWith(EMPTY_PARAGRAPH, end)) end -= EMPTY_PARAGRAPH.length;
  return html.slice(0, end);
}
