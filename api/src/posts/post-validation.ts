import {
  normalizePostInput,
  POST_MIN_RULES,
  postInputSchema,
  postRuleIssues,
  postValidationMessages,
  readTime,
  validationFailedMessage,
  type PostInput,
} from '@site/contracts/posts';
import type { RevisionPost } from '@site/contracts/admin';
import { SCHEDULE_MESSAGES, parsePublishAt, publishAtProblem } from '@site/contracts/post-schedule';
import { fieldIssues, type FieldIssue } from '@site/contracts/error';
import { InvalidInputError } from '../lib/domain-errors';
import type { StoredPost } from './posts-repository';
import { sanitizePostHtml } from './sanitize-post-html';

export class PostValidationError extends InvalidInputError {
  /**
   * `messages` are the spec's sentences (the admin form shows them); `issues` say the same per field in an API
   * caller's words (`title: must be at least 5 characters (got 3)`), for the webhook.
   */
  constructor(
    readonly messages: string[],
    readonly issues: FieldIssue[] = messages.map((message) => ({ path: '(body)', message })),
  ) {
    super(validationFailedMessage(messages), { details: messages });
  }
}

/** Parses the shape with the contract, trims, then applies the spec's length rules and sanitizes the HTML. */
export function validatePost(input: unknown) {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) {
    throw new PostValidationError(['The body must be a JSON object'], [{ path: '(body)', message: 'The body must be a JSON object' }]);
  }
  // A missing required field is reported with the spec's own "at least N characters" message.
  const filled: Record<string, unknown> = { ...input };
  const missing = new Set<string>();
  for (const rule of POST_MIN_RULES) {
    if (filled[rule.field] === undefined || filled[rule.field] === null) {
      filled[rule.field] = '';
      missing.add(rule.field);
    }
  }
  const shape = postInputSchema.safeParse(filled);
  if (!shape.success) {
    const issues = fieldIssues(shape.error);
    throw new PostValidationError(
      issues.map((i) => `${i.path === '(body)' ? 'body' : i.path}: ${i.message}`),
      issues,
    );
  }
  const normalized = normalizePostInput(shape.data as PostInput);
  const content = sanitizePostHtml(normalized.content);
  // Length rules on the text the visitor will get: a payload that sanitizes to nothing is too short.
  const messages = postValidationMessages({ ...normalized, content });
  if (messages.length > 0) {
    const issues = postRuleIssues({ ...normalized, content }, missing).map((issue) =>
      issue.path === 'content' && content.length !== normalized.content.length
        ? { ...issue, message: `${issue.message.replace(/\)$/, '')} after removing unsafe HTML)` }
        : issue,
    );
    throw new PostValidationError(messages, issues);
  }
  return { ...normalized, content };
}

/** A post's fields as checked and sanitized by `validatePost`. */
export type ValidPost = ReturnType<typeof validatePost>;

/** What a create or an update sets from validated input: the same fields, derived the same way. */
export function writableFields(v: ValidPost, categorySlug: string, status: StoredPost['status']) {
  return {
    title: v.title,
    excerpt: v.excerpt,
    content: v.content,
    keywords: v.keywords,
    author: v.author,
    category: v.category,
    categorySlug,
    status,
    featuredImage: v.featuredImage ?? null,
    ogImage: v.ogImage ?? null,
    readTime: readTime(v.content),
    metaDescription: v.metaDescription,
  } satisfies Partial<StoredPost>;
}

/** A revision's writable fields checked as if sent now: the rules and the sanitizer run again (restore, undelete). */
export function validateRevisionFields(old: RevisionPost) {
  return validatePost({
    title: old.title,
    excerpt: old.excerpt,
    content: old.content,
    author: old.author,
    category: old.category,
    metaDescription: old.metaDescription,
    keywords: old.keywords,
    ...(old.featuredImage ? { featuredImage: old.featuredImage } : {}),
    ...(old.ogImage ? { ogImage: old.ogImage } : {}),
  });
}

/** A schedule's time from input: the instant as ISO UTC, or a validation error naming `publishAt`. */
export function checkedPublishAt(value: string | undefined, now: Date): string {
  if (value === undefined || value.trim() === '') {
    throw new PostValidationError([SCHEDULE_MESSAGES.required], [{ path: 'publishAt', message: SCHEDULE_MESSAGES.required }]);
  }
  const problem = publishAtProblem(value.trim(), now);
  if (problem) throw new PostValidationError([problem], [{ path: 'publishAt', message: problem }]);
  return parsePublishAt(value.trim())!.toISOString();
}
