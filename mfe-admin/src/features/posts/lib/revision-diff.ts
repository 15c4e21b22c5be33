import { diffWords } from 'diff';
import type { RevisionPost } from '@site/contracts/admin';
import { formatInBusinessZone } from '@site/contracts/post-schedule';
import { PLACEHOLDER_IMAGE, type Post } from '@site/contracts/posts';

/** The names a revision's `changedFields` uses, as the form calls them. */
export const REVISION_FIELD_LABELS: Record<keyof RevisionPost, string> = {
  title: 'Title',
  slug: 'Slug',
  excerpt: 'Excerpt',
  content: 'Content',
  keywords: 'Keywords',
  author: 'Author',
  category: 'Category',
  categorySlug: 'Category',
  status: 'Status',
  featuredImage: 'Featured image',
  ogImage: 'OG image',
  metaDescription: 'Meta description',
  publishedAt: 'Publishing date',
  publishAt: 'Scheduled time',
};

/** `changedFields` as distinct labels ('Category' once for category and categorySlug); unknown names as they are. */
export function changedFieldLabels(fields: readonly string[]): string[] {
  const labels = fields.map((f) => (f in REVISION_FIELD_LABELS ? REVISION_FIELD_LABELS[f as keyof RevisionPost] : f));
  return [...new Set(labels)];
}

/** The short fields compared side by side, in the form's order; content has its own word diff. */
const SHORT_FIELDS = ['title', 'excerpt', 'metaDescription', 'author', 'category', 'keywords', 'featuredImage', 'ogImage', 'slug', 'status', 'publishAt', 'publishedAt'] as const;
type ShortField = (typeof SHORT_FIELDS)[number];
/** What a restore leaves as it is now (the server keeps the post's status, schedule, publishing date and address). */
const KEPT_ON_RESTORE: ReadonlySet<ShortField> = new Set(['slug', 'status', 'publishAt', 'publishedAt']);

export type FieldChange = { field: ShortField; label: string; then: string; now: string; keptOnRestore: boolean };

const NONE = '(none)';

type Version = Pick<RevisionPost, ShortField> | Pick<Post, ShortField>;

/**
 * A field's value as text. Images compare by what readers get: no image and the placeholder are the same (the blog
 * shows the placeholder), and no OG image is the featured image (link previews fall back to it).
 */
function shown(field: ShortField, version: Version): string {
  const value = version[field];
  if (field === 'featuredImage') return !value || value === PLACEHOLDER_IMAGE ? '(none: the blog’s placeholder)' : String(value);
  if (field === 'ogImage') return !value || value === (version.featuredImage || PLACEHOLDER_IMAGE) ? '(the featured image)' : String(value);
  if (Array.isArray(value)) return value.length ? value.join(', ') : NONE;
  if (value === null || value === undefined || value === '') return NONE;
  if (field === 'publishAt' || field === 'publishedAt') return formatInBusinessZone(value);
  return value;
}

/** The short fields whose value differs between a revision and the post now, as text to show. */
export function shortFieldChanges(then: RevisionPost, now: Post): FieldChange[] {
  const out: FieldChange[] = [];
  for (const field of SHORT_FIELDS) {
    const a = shown(field, then);
    const b = shown(field, now);
    if (a !== b) out.push({ field, label: REVISION_FIELD_LABELS[field], then: a, now: b, keptOnRestore: KEPT_ON_RESTORE.has(field) });
  }
  return out;
}

const BLOCKS = new Set(['P', 'DIV', 'H1', 'H2', 'H3', 'H4', 'H5', 'H6', 'LI', 'UL', 'OL', 'BLOCKQUOTE', 'PRE', 'TABLE', 'TR', 'FIGURE', 'FIGCAPTION', 'SECTION', 'ARTICLE', 'HR']);

/**
 * The readable text of article HTML: tags dropped, entities decoded, one line per block (paragraph, heading, list
 * item, row), an image as its alt text. Parsed by the browser as an inert document: nothing runs, nothing loads.
 */
export function htmlToText(html: string): string {
  const doc = new DOMParser().parseFromString(html, 'text/html');
  const parts: string[] = [];
  const walk = (node: Node) => {
    if (node.nodeType === Node.TEXT_NODE) {
      parts.push((node.textContent ?? '').replace(/\s+/g, ' '));
      return;
    }
    if (node.nodeType !== Node.ELEMENT_NODE) return;
    const el = node as Element;
    if (el.tagName === 'SCRIPT' || el.tagName === 'STYLE' || el.tagName === 'TEMPLATE') return;
    if (el.tagName === 'BR') {
      parts.push('\n');
      return;
    }
    if (el.tagName === 'IMG') {
      const alt = el.getAttribute('alt');
      if (alt) parts.push(`[image: ${alt}]`);
      return;
    }
    const block = BLOCKS.has(el.tagName);
    if (block) parts.push('\n');
    if (el.tagName === 'TD' || el.tagName === 'TH') parts.push(' ');
    el.childNodes.forEach(walk);
    if (block) parts.push('\n');
  };
  doc.body.childNodes.forEach(walk);
  return parts
    .join('')
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean)
    .join('\n');
}

export type WordChange = { kind: 'same' | 'added' | 'removed'; text: string };

/** A word-level diff of two versions' article text (old first). */
export function contentWordDiff(thenHtml: string, nowHtml: string): WordChange[] {
  return diffWords(htmlToText(thenHtml), htmlToText(nowHtml)).map((c) => ({ kind: c.added ? 'added' : c.removed ? 'removed' : 'same', text: c.value }));
}
