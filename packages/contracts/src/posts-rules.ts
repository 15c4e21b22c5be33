/*
 * The blog's pure rules, shared by the API, the blog and the admin: statuses, categories, placeholder images, the
 * spec's validation messages and rules, slugs, read time, excerpts. No zod here: the blog's pages use these without
 * loading zod; the schemas are in ./posts, which re-exports this module.
 */
import type { Post, PostInput } from './posts';
import { textMatches } from './search-rules';

/** `scheduled`: published by the server at its `publishAt` (post-schedule.ts); invisible to the public until then. */
export const POST_STATUSES = ['draft', 'scheduled', 'published', 'archived'] as const;
export type PostStatus = (typeof POST_STATUSES)[number];
export const POST_SOURCES = ['local', 'n8n'] as const;
export type PostSource = (typeof POST_SOURCES)[number];

/** The categories forms and filters offer (How-To Guides is offered even though it is not seeded). */
export const BLOG_CATEGORIES = ['AI Automation', 'Case Studies', 'Industry Insights', 'How-To Guides'] as const;

/** The real placeholder image shipped by the blog remote (featuredImage default, ogImage and broken-image fallback). */
export const PLACEHOLDER_IMAGE = '/mfe/blog/placeholder.svg';
/** The same picture as a 1200x630 JPEG, for link previews (social sites do not render SVG). */
export const PLACEHOLDER_SOCIAL_IMAGE = '/mfe/blog/placeholder-og.jpg';
/** PLACEHOLDER_SOCIAL_IMAGE's size in pixels (og:image:width and og:image:height). */
export const PLACEHOLDER_SOCIAL_IMAGE_SIZE = { width: 1200, height: 630 } as const;
export const PLACEHOLDER_IMAGE_ALT = 'Image not available';

export const WORDS_PER_MINUTE = 200;
export const CARD_EXCERPT_LENGTH = 150;

/** Minimum lengths (spec section 5) with their exact messages, in the order they are reported. */
export const POST_MIN_RULES = [
  { field: 'title', min: 5, message: 'Title must be at least 5 characters long' },
  { field: 'excerpt', min: 20, message: 'Excerpt must be at least 20 characters long' },
  { field: 'content', min: 100, message: 'Content must be at least 100 characters long' },
  { field: 'author', min: 2, message: 'Author name must be at least 2 characters long' },
  { field: 'category', min: 2, message: 'Category must be at least 2 characters long' },
  { field: 'metaDescription', min: 50, message: 'Meta description must be at least 50 characters long' },
] as const;

/** Sensible upper bounds, so one request cannot store a novel in a title. */
export const POST_MAX_RULES = [
  { field: 'title', max: 200, message: 'Title must be at most 200 characters long' },
  { field: 'excerpt', max: 1000, message: 'Excerpt must be at most 1000 characters long' },
  { field: 'content', max: 200_000, message: 'Content must be at most 200000 characters long' },
  { field: 'author', max: 100, message: 'Author name must be at most 100 characters long' },
  { field: 'category', max: 60, message: 'Category must be at most 60 characters long' },
  { field: 'metaDescription', max: 320, message: 'Meta description must be at most 320 characters long' },
] as const;

export const MAX_KEYWORDS = 20;
export const MAX_KEYWORD_LENGTH = 50;
export const VALIDATION_FAILED_PREFIX = 'Validation failed: ';

/** 'Validation failed: ' followed by the messages joined by ', ' (the one sentence admin form and API show). */
export function validationFailedMessage(messages: readonly string[]): string {
  return VALIDATION_FAILED_PREFIX + messages.join(', ');
}

/** RFC 3986 characters, minus the quote: nothing that can end an HTML attribute or open a tag. */
const URL_CHARACTERS = /^[\w\-.~:/?#[\]@!$&()*+,;=%]+$/;
/**
 * A host label that does not begin with `xn--` (any case): such a label claims to be punycode, and the URL parser
 * refuses one that does not decode, which no pattern can tell. `first` is the class of the label's first character.
 * Written without lookahead so that a JSON Schema reader and fast-check's `stringMatching` both understand it.
 */
function plainLabel(first: 'any' | 'letter'): string {
  const start = first === 'any' ? '[A-WYZa-wyz0-9-]' : '[A-WYZa-wyz]';
  return `(?:${start}[A-Za-z0-9-]*|[Xx](?:(?:[A-MO-Za-mo-z0-9-]|[Nn](?:[A-Za-z0-9]|-[A-Za-z0-9]))[A-Za-z0-9-]*|[Nn]-?)?)`;
}
/**
 * `isImageUrl` as a JSON Schema `pattern` for the API description: none, a site path, or an http(s) URL whose host
 * ends in a name (an address the check accepts; the check also takes a few rarer forms, e.g. IP hosts and punycode
 * `xn--` names).
 */
export const IMAGE_URL_PATTERN =
  "^(?:/(?:[\\w\\-.~:?#[\\]@!$&()*+,;=%][\\w\\-.~:/?#[\\]@!$&()*+,;=%]*)?|[Hh][Tt][Tt][Pp][Ss]?://(?:" +
  plainLabel('any') +
  "\\.)*" +
  plainLabel('letter') +
  "(?::[1-9]\\d{0,3})?(?:[/?#][\\w\\-.~:/?#[\\]@!$&()*+,;=%]*)?)?$";
export const IMAGE_URL_MESSAGE = 'must be an http(s) URL or a site path (no spaces, quotes or angle brackets)';

/** An image address: empty (none), a site path (`/mfe/blog/a.png`) or an absolute http(s) URL with a host. */
export function isImageUrl(value: string): boolean {
  if (value === '') return true;
  if (!URL_CHARACTERS.test(value)) return false;
  if (value.startsWith('/')) return !value.startsWith('//');
  if (!/^https?:\/\//i.test(value) || !URL.canParse(value)) return false;
  return new URL(value).hostname !== '';
}

export type NormalizedPostInput = {
  title: string;
  excerpt: string;
  content: string;
  author: string;
  category: string;
  metaDescription: string;
  keywords: string[];
  featuredImage: string | undefined;
  ogImage: string | undefined;
  status: 'draft' | 'published' | 'scheduled' | undefined;
  /** When `status` is scheduled: the time to publish at, as sent (checked by the service against its clock). */
  publishAt: string | undefined;
};

/** Trims every field and cleans keywords (trimmed, empties and duplicates dropped). */
export function normalizePostInput(input: PostInput): NormalizedPostInput {
  const seen = new Set<string>();
  const keywords: string[] = [];
  for (const k of input.keywords ?? []) {
    const t = k.trim();
    if (t && !seen.has(t.toLowerCase())) {
      seen.add(t.toLowerCase());
      keywords.push(t);
    }
  }
  return {
    title: input.title.trim(),
    excerpt: input.excerpt.trim(),
    content: input.content.trim(),
    author: input.author.trim(),
    category: input.category.trim(),
    metaDescription: input.metaDescription.trim(),
    keywords,
    featuredImage: input.featuredImage?.trim() || undefined,
    ogImage: input.ogImage?.trim() || undefined,
    status: input.status,
    publishAt: input.publishAt?.trim() || undefined,
  };
}

/** The spec's messages for a normalized input, in spec order; empty when valid. */
export function postValidationMessages(input: Pick<NormalizedPostInput, (typeof POST_MIN_RULES)[number]['field']>): string[] {
  const messages: string[] = [];
  for (const rule of POST_MIN_RULES) if (input[rule.field].length < rule.min) messages.push(rule.message);
  for (const rule of POST_MAX_RULES) if (input[rule.field].length > rule.max) messages.push(rule.message);
  return messages;
}

/** The field names callers send, as the webhook's messages name them. */
export type PostRuleField = (typeof POST_MIN_RULES)[number]['field'];

/**
 * The same rules as `postValidationMessages`, worded for an API caller (n8n, a script): the field as sent, the
 * rule and what was received, e.g. `{ path: 'title', message: 'must be at least 5 characters (got 3)' }`.
 * `missing` names fields absent from the request.
 */
export function postRuleIssues(
  input: Pick<NormalizedPostInput, PostRuleField>,
  missing: ReadonlySet<string> = new Set(),
): { path: string; message: string }[] {
  const issues: { path: string; message: string }[] = [];
  for (const rule of POST_MIN_RULES) {
    const length = input[rule.field].length;
    if (missing.has(rule.field)) issues.push({ path: rule.field, message: `is required (at least ${rule.min} characters)` });
    else if (length < rule.min) issues.push({ path: rule.field, message: `must be at least ${rule.min} characters (got ${length})` });
  }
  for (const rule of POST_MAX_RULES) {
    const length = input[rule.field].length;
    if (length > rule.max) issues.push({ path: rule.field, message: `must be at most ${rule.max} characters (got ${length})` });
  }
  return issues;
}

/** Keywords as typed in the form: comma-separated, trimmed, empties dropped. */
export function parseKeywords(value: string): string[] {
  return value
    .split(',')
    .map((k) => k.trim())
    .filter(Boolean);
}

/** Title lowercased, spaces to dashes, non-alphanumerics removed (dashes collapsed; never empty). */
export function slugify(title: string): string {
  const slug = title
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .trim()
    .replace(/\s+/g, '-')
    .replace(/[^a-z0-9-]/g, '')
    .replace(/-+/g, '-')
    .replace(/^-|-$/g, '');
  return slug || 'post';
}

/** Whether a string can be a post slug (what `slugify` makes): lowercase letters, digits and single dashes. */
export function isPostSlug(value: string): boolean {
  return value.length <= 250 && /^[a-z0-9]+(?:-[a-z0-9]+)*$/.test(value);
}

/** The first free slug: `base`, then `base-2`, `base-3`… */
export function uniqueSlug(base: string, taken: ReadonlySet<string>): string {
  if (!taken.has(base)) return base;
  for (let n = 2; ; n++) if (!taken.has(`${base}-${n}`)) return `${base}-${n}`;
}

/** Where `</name>` (any case) starts at or after `from`, or -1; a plain scan, no pattern. */
function closingTagAt(html: string, name: string, from: number): number {
  const closing = `</${name}>`;
  for (let at = html.indexOf('</', from); at !== -1; at = html.indexOf('</', at + 2)) {
    if (html.slice(at, at + closing.length).toLowerCase() === closing) return at;
  }
  return -1;
}

/**
 * Visible text of an HTML fragment (tags removed, script and style content dropped, common entities decoded,
 * whitespace collapsed). One pass from tag to tag, so a body full of '<' without a '>' cannot make it rescan the rest
 * of the text from each one.
 */
export function htmlToText(html: string): string {
  const parts: string[] = [];
  const unclosed = new Set<string>();
  let i = 0;
  while (i < html.length) {
    const lt = html.indexOf('<', i);
    const gt = lt === -1 ? -1 : html.indexOf('>', lt + 1);
    if (gt === -1) {
      // No tag from here on: the rest is text (a lone '<' included), as the browser shows it.
      parts.push(html.slice(i));
      break;
    }
    parts.push(html.slice(i, lt), ' ');
    i = gt + 1;
    const name = /^<(script|style)(?=[\s/>])/i.exec(html.slice(lt, lt + 8))?.[1]?.toLowerCase();
    if (name && !unclosed.has(name)) {
      const close = closingTagAt(html, name, i);
      // A missing close is remembered: the next such tag would scan the same rest again.
      if (close === -1) unclosed.add(name);
      else i = close + name.length + 3;
    }
  }
  return parts
    .join('')
    .replace(/&nbsp;/g, ' ')
    .replace(/&amp;/g, '&')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/\s+/g, ' ')
    .trim();
}

/** Minutes to read: words of the text content / 200, rounded up, at least 1. */
export function readTime(html: string): number {
  const words = htmlToText(html).split(' ').filter(Boolean).length;
  return Math.max(1, Math.ceil(words / WORDS_PER_MINUTE));
}

/** Excerpt cut to 150 characters for a card, on a word boundary when one is near, with an ellipsis. */
export function cardExcerpt(excerpt: string, max = CARD_EXCERPT_LENGTH): string {
  if (excerpt.length <= max) return excerpt;
  const cut = excerpt.slice(0, max);
  const space = cut.lastIndexOf(' ');
  return (space > max * 0.6 ? cut.slice(0, space) : cut).trimEnd() + '…';
}

/**
 * The real name of a category from its URL slug: a known category whose slug matches (the names given, e.g. the
 * stored categories, then the four offered ones), and Title Case only for a slug no category has.
 */
export function categoryNameForSlug(slug: string, known: readonly string[] = []): string {
  const wanted = slug.toLowerCase();
  return [...known, ...BLOG_CATEGORIES].find((name) => slugify(name) === wanted) ?? titleCaseSlug(slug);
}

/** The designed card illustration of an offered category (served by the blog remote); undefined for others. */
export function categoryIllustration(category: string): string | undefined {
  const slug = slugify(category);
  return BLOG_CATEGORIES.some((name) => slugify(name) === slug) ? `/mfe/blog/categories/${slug}.svg` : undefined;
}

/** `some-category` shown as `Some Category`. */
export function titleCaseSlug(slug: string): string {
  return slug
    .split('-')
    .filter(Boolean)
    .map((w) => w[0]!.toUpperCase() + w.slice(1))
    .join(' ');
}

/** The admin panel's edit page of a post (mfe-admin's route `/admin/posts/:id/edit`), as the webhook links it. */
export const adminEditPostPath = (id: string) => `/admin/posts/${encodeURIComponent(id)}/edit`;

/** Page size of `GET /api/posts` when the caller names none, and the most one page may hold. */
export const POSTS_PAGE_DEFAULT_LIMIT = 12;
export const POSTS_PAGE_MAX_LIMIT = 50;

/**
 * True when a post matches the search text (title, excerpt and category; every word, the last one as a prefix,
 * case-insensitive): the rule the server's full-text search implements (api/src/db/full-text-search.ts). Only for
 * test fakes of `GET /api/posts`; the site never searches on the client.
 */
export function postMatches(post: Pick<Post, 'title' | 'excerpt' | 'category'>, q: string): boolean {
  return textMatches([post.title, post.excerpt, post.category], q);
}

/**
 * The answer of `POST /api/posts/:slug/views` (`viewsResultSchema` in ./posts), checked without zod: the post page
 * records a view on every visit and must not load zod for it. A contract test holds the two to the same answers.
 */
export const viewsResultCheck = {
  safeParse(value: unknown): { success: true; data: { views: number } } | { success: false } {
    const views = (value as { views?: unknown } | null)?.views;
    return typeof value === 'object' && value !== null && !Array.isArray(value) && typeof views === 'number' && Number.isSafeInteger(views) && views >= 0
      ? { success: true, data: { views } }
      : { success: false };
  },
};
