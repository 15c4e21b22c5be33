/**
 * What the form knows of the rich-text editor (components/rich-text/rich-text-editor.tsx) before its code, which loads
 * later in its own chunk, is there.
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
