import { adminPostCreateSchema, CHOOSE_CATEGORY_MESSAGE, type AdminPostCreate } from '@site/contracts/admin';
import {
  MAX_KEYWORD_LENGTH,
  MAX_KEYWORDS,
  PLACEHOLDER_IMAGE,
  POST_MIN_RULES,
  normalizePostInput,
  parseKeywords,
  postValidationMessages,
  type Post,
} from '@site/contracts/posts';

/** What the form holds: every field as typed (keywords as one comma-separated line). */
export type PostFormValues = {
  title: string;
  excerpt: string;
  content: string;
  author: string;
  category: string;
  keywords: string;
  featuredImage: string;
  ogImage: string;
  metaDescription: string;
};

export const POST_FORM_FIELDS = ['title', 'excerpt', 'content', 'author', 'category', 'keywords', 'featuredImage', 'ogImage', 'metaDescription'] as const;

export const emptyPostValues: PostFormValues = {
  title: '',
  excerpt: '',
  content: '',
  author: '',
  category: '',
  keywords: '',
  featuredImage: '',
  ogImage: '',
  metaDescription: '',
};

/** The form's values for a stored post; the placeholder image (the server's default) shows as an empty field. */
export function valuesFromPost(post: Post): PostFormValues {
  const featured = post.featuredImage === PLACEHOLDER_IMAGE ? '' : post.featuredImage;
  const og = post.ogImage === PLACEHOLDER_IMAGE || (post.ogImage === post.featuredImage && post.ogImage !== '') ? '' : post.ogImage;
  return {
    title: post.title,
    excerpt: post.excerpt,
    content: post.content,
    author: post.author,
    category: post.category,
    keywords: post.keywords.join(', '),
    featuredImage: featured,
    ogImage: og,
    metaDescription: post.metaDescription,
  };
}

/** The request body: keywords split on commas, trimmed, empties dropped; empty image fields left out. */
export function toPostInput(values: PostFormValues): AdminPostCreate {
  return {
    title: values.title,
    excerpt: values.excerpt,
    content: values.content,
    author: values.author,
    category: values.category,
    metaDescription: values.metaDescription,
    keywords: parseKeywords(values.keywords),
    featuredImage: values.featuredImage.trim() || undefined,
    ogImage: values.ogImage.trim() || undefined,
  };
}

export const sameValues = (a: PostFormValues, b: PostFormValues) => POST_FORM_FIELDS.every((f) => a[f] === b[f]);

const CATEGORY_RULE = POST_MIN_RULES.find((r) => r.field === 'category')!;

/**
 * The shared contract's rules, exactly as the API applies them: the spec's minimum lengths (in spec order, as the
 * API's 'Validation failed: …' lists them), then the shape rules (image URLs, keyword count and length). Empty when
 * valid. `categoryTyped` is false while the category comes from the list: nothing chosen there is 'Choose a category'.
 */
export function postFormMessages(values: PostFormValues, { categoryTyped = false }: { categoryTyped?: boolean } = {}): string[] {
  const input = toPostInput(values);
  const messages = postValidationMessages(normalizePostInput({ ...input, keywords: [] })).map((m) =>
    m === CATEGORY_RULE.message && !categoryTyped && values.category.trim() === '' ? CHOOSE_CATEGORY_MESSAGE : m,
  );
  const keywords = input.keywords ?? [];
  if (keywords.length > MAX_KEYWORDS) messages.push(`keywords: At most ${MAX_KEYWORDS} keywords`);
  if (keywords.some((k) => k.length > MAX_KEYWORD_LENGTH)) messages.push(`keywords: Each keyword must be at most ${MAX_KEYWORD_LENGTH} characters`);
  const shape = adminPostCreateSchema.safeParse({ ...input, keywords: [] });
  if (!shape.success) {
    for (const issue of shape.error.issues) messages.push(issue.path.length ? `${String(issue.path[0])}: ${issue.message}` : issue.message);
  }
  return messages;
}

/** Messages of a 400 'Validation failed: …': its details when they are a list, else the sentence after the prefix. */
export function validationMessages(err: { message: string; details?: unknown }): string[] {
  if (Array.isArray(err.details) && err.details.every((d) => typeof d === 'string')) return err.details as string[];
  return err.message.replace(/^Validation failed: /, '').split(', ').filter(Boolean);
}
