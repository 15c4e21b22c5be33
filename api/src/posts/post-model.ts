import { PLACEHOLDER_IMAGE, type Post, type PostSummary } from '@site/contracts/posts';
import { ADMIN_MESSAGES } from '@site/contracts/admin';
import { isRecordKey } from '@site/contracts/text';
import type { ChangeEvents } from '../db/in-transaction';
import type { Clock } from '../lib/clock';
import { DomainError, NotFoundError } from '../lib/domain-errors';
import type { Logger } from '../lib/logger';
import type { PostsRepository, StoredPost, StoredPostSummary } from './posts-repository';

// What every use case of the post service shares: its dependencies, who acts, the API's post and the common errors.

export const POST_NOT_FOUND = 'Post not found';

/** Who saves a post: kept with each revision. */
export type PostActor = { kind: 'admin' } | { kind: 'webhook'; source: string } | { kind: 'schedule' } | { kind: 'system' };

/** A change told to `onPostEvent`: the post as it is after the change (as it was, for a delete). */
export interface PostEvent {
  type: 'post.published' | 'post.updated' | 'post.deleted';
  post: Post;
}

export interface PostServiceDeps {
  posts: PostsRepository;
  clock: Clock;
  newId?: () => string;
  /**
   * Told, after each stored change of public content, which pages it touches (lib/content-tags.ts): the render cache
   * drops them, here and on every instance. Called before the change's caller gets its answer.
   */
  onContentChange?: (tags: string[]) => void;
  /**
   * Each stored change a subscriber outside may care about (outgoing webhooks): a post published (by hand, by the n8n
   * webhook or by the scheduler), a published post saved again, a post deleted. Written in the change's transaction
   * (with its revision), so the change is never stored without its event; committed before the caller's answer.
   */
  events?: ChangeEvents<PostEvent>;
  logger?: Logger;
  /**
   * The alt text the owner wrote on the Media screen, by image address (an address of no image with one is left out):
   * a post a reader gets carries its featured image's as `featuredImageAlt`.
   */
  imageAlts?: (urls: readonly string[]) => Promise<ReadonlyMap<string, string>>;
}

/** The dependencies with their defaults filled in, as each use case gets them. */
export type PostContext = PostServiceDeps & { newId: () => string; logger: Logger };

/** The post changed since the caller loaded it; `details.current` is the stored version. */
export class PostConflictError extends DomainError {
  readonly kind = 'conflict';
  constructor(current: Post) {
    super('conflict', ADMIN_MESSAGES.postConflict, { details: { current } });
  }
}

export const notFound = () => new NotFoundError(POST_NOT_FOUND);

/**
 * The `updatedAt` of a post's next version: the clock's time, or one millisecond after the version it replaces when
 * the clock has not passed it (two writes within one millisecond, or an instance whose clock is behind). `updatedAt`
 * is the version every compare-and-set write checks, so each write gives a new one: two edits of one version within a
 * millisecond would otherwise both match it, and the second would overwrite the first unseen.
 */
export function nextUpdatedAt(previous: string, now: Date): string {
  const before = Date.parse(previous);
  return new Date(Number.isNaN(before) ? now.getTime() : Math.max(now.getTime(), before + 1)).toISOString();
}

/** The stored post with this id; 404 'Post not found' otherwise (also for an id no post could have). */
export async function findPost(posts: PostsRepository, id: string): Promise<StoredPost> {
  if (!isRecordKey(id)) throw notFound();
  const post = await posts.findById(id);
  if (!post) throw notFound();
  return post;
}

/** A stored post as the API shows it: image fallbacks resolved (ogImage -> featuredImage -> placeholder). */
export function toPost(p: StoredPost): Post {
  return { ...toSummary(p), content: p.content };
}

/**
 * A post as lists show it: the API's post without its content (lists read none from the database). Built field by
 * field, once per row of a page: cheaper than copying the row and deleting `content`.
 */
export function toSummary(p: StoredPostSummary): PostSummary {
  return {
    id: p.id,
    title: p.title,
    slug: p.slug,
    excerpt: p.excerpt,
    keywords: p.keywords,
    author: p.author,
    publishedAt: p.publishedAt,
    publishAt: p.publishAt,
    createdAt: p.createdAt,
    updatedAt: p.updatedAt,
    status: p.status,
    featuredImage: p.featuredImage ?? PLACEHOLDER_IMAGE,
    category: p.category,
    categorySlug: p.categorySlug,
    readTime: p.readTime,
    views: p.views,
    metaDescription: p.metaDescription,
    ogImage: p.ogImage ?? p.featuredImage ?? PLACEHOLDER_IMAGE,
    source: p.source,
  };
}
