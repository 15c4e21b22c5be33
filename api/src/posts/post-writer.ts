import { randomUUID } from 'node:crypto';
import { uniqueSlug } from '@site/contracts/posts';
import { revisionPostSchema, type RevisionAction, type RevisionPost } from '@site/contracts/admin';
import type { InTransaction } from '../db/in-transaction';
import { postChangeTags } from '../lib/content-tags';
import { ConflictError } from '../lib/domain-errors';
import type { NewRevision, PostsRepository, StoredPost, StoredPostSummary } from './posts-repository';
import { toPost, type PostActor, type PostContext, type PostEvent } from './post-model';

function actorLabel(actor: PostActor): string {
  switch (actor.kind) {
    case 'admin':
      return 'Admin';
    case 'webhook':
      return `Webhook (${actor.source})`;
    case 'schedule':
      return 'Scheduled publishing';
    case 'system':
      return 'System';
  }
}

const REVISION_FIELDS = Object.keys(revisionPostSchema.shape) as Array<keyof RevisionPost>;

/** The fields a revision keeps, from a stored post. */
export function revisionSnapshot(p: StoredPost): RevisionPost {
  return {
    title: p.title,
    slug: p.slug,
    excerpt: p.excerpt,
    content: p.content,
    keywords: p.keywords,
    author: p.author,
    category: p.category,
    categorySlug: p.categorySlug,
    status: p.status,
    featuredImage: p.featuredImage,
    ogImage: p.ogImage,
    metaDescription: p.metaDescription,
    publishedAt: p.publishedAt,
    publishAt: p.publishAt,
  };
}

/** Field names whose values differ between two versions (every field when there is no earlier one). */
export function changedFields(before: RevisionPost | undefined, after: RevisionPost): string[] {
  if (!before) return [...REVISION_FIELDS];
  return REVISION_FIELDS.filter((field) => JSON.stringify(before[field]) !== JSON.stringify(after[field]));
}

/** Slug choices from the stored ones before a random suffix guarantees progress under a burst of one title. */
const SLUG_ATTEMPTS = 5;

export type PostWriter = ReturnType<typeof createPostWriter>;

/**
 * The steps every write of a post shares, whichever use case makes it (commands, restore, undelete): its revision,
 * its event, and what follows it (the published line, the render cache, the outbox).
 */
export function createPostWriter(ctx: PostContext) {
  const { posts, newId, logger } = ctx;

  /** Tells the render cache which public pages a change touched (nothing for drafts and scheduled posts). */
  function tell(...versions: Array<StoredPostSummary | undefined>) {
    if (!ctx.onContentChange) return;
    const tags = postChangeTags(...versions);
    if (tags.length > 0) ctx.onContentChange(tags);
  }

  /** The event a write stores with itself (none without a subscriber, or when `type` is undefined). */
  function eventOf(type: PostEvent['type'] | undefined, post: StoredPost): InTransaction | undefined {
    return type && ctx.events ? ctx.events.inTransaction({ type, post: toPost(post) }) : undefined;
  }

  /** After a write that stored an event: the outbox sends it. */
  const committed = () => ctx.events?.committed();

  function published(post: StoredPost, actor: PostActor, scheduledFor?: string) {
    logger.info(
      {
        event: 'post.published',
        postId: post.id,
        slug: post.slug,
        by: actor.kind,
        ...(scheduledFor ? { scheduledFor, delayMs: Date.parse(post.updatedAt) - Date.parse(scheduledFor) } : {}),
      },
      'post.published',
    );
  }

  /** The event a write from `before` to `after` stores: going public, or a change of a post that is public. */
  const eventTypeOf = (before: StoredPost | undefined, after: StoredPost): PostEvent['type'] | undefined =>
    after.status !== 'published' ? undefined : before?.status === 'published' ? 'post.updated' : 'post.published';

  /**
   * The one publish step: what follows every stored change of a post, whichever path wrote it (admin, webhook,
   * scheduler, restore, undelete, delete): the `post.published` line when it went public, the render cache told which
   * public pages changed, and the outbox kicked when the write stored an event.
   */
  function afterWrite(before: StoredPost | undefined, after: StoredPost | undefined, actor: PostActor, options: { event: boolean; scheduledFor?: string }) {
    if (after?.status === 'published' && before?.status !== 'published') published(after, actor, options.scheduledFor);
    tell(before, after);
    if (options.event) committed();
  }

  /**
   * Writes `after` over `before` when the stored post still matches `where` (compare-and-set), with its revision and
   * its event in the same transaction, then the publish step. False when another write came first (nothing stored).
   */
  async function writeOver(
    before: StoredPost,
    after: StoredPost,
    where: Parameters<PostsRepository['update']>[1],
    action: RevisionAction,
    actor: PostActor,
    extra: { restoredFrom?: number; scheduledFor?: string } = {},
  ): Promise<boolean> {
    const event = eventOf(eventTypeOf(before, after), after);
    if (!(await posts.update(after, where, revisionOf(action, actor, before, after, extra.restoredFrom ?? null), event))) return false;
    afterWrite(before, after, actor, { event: event !== undefined, scheduledFor: extra.scheduledFor });
    return true;
  }

  /** The revision a write stores: who, when, what, and the post as written. */
  function revisionOf(action: RevisionAction, actor: PostActor, before: StoredPost | undefined, after: StoredPost, restoredFrom: number | null = null): NewRevision {
    const snapshot = revisionSnapshot(after);
    return {
      id: newId(),
      createdAt: after.updatedAt,
      action,
      authorKind: actor.kind,
      authorLabel: actorLabel(actor),
      changedFields: changedFields(before ? revisionSnapshot(before) : undefined, snapshot),
      restoredFrom,
      snapshot,
    };
  }

  async function ensureCategory(name: string, categorySlug: string, now: string) {
    await posts.ensureCategory({ id: newId(), name, slug: categorySlug, description: `Articles about ${name}.`, createdAt: now });
  }

  /** Inserts a new post under its title's slug or the next free one (the unique index decides between racers). */
  async function insertWithFreeSlug(make: (slug: string) => StoredPost, base: string, action: RevisionAction, actor: PostActor, preferred?: string) {
    for (let attempt = 0; ; attempt++) {
      const slug =
        attempt === 0
          ? (preferred ?? base)
          : attempt <= SLUG_ATTEMPTS
            ? uniqueSlug(base, await posts.slugsLike(base))
            : `${base}-${randomUUID().slice(0, 8)}`;
      const post = make(slug);
      const event = eventOf(eventTypeOf(undefined, post), post);
      if (await posts.insert(post, revisionOf(action, actor, undefined, post), event)) {
        afterWrite(undefined, post, actor, { event: event !== undefined });
        return post;
      }
      if (attempt > SLUG_ATTEMPTS + 1) throw new ConflictError('The post could not get a free address. Please try again.');
    }
  }

  return { eventOf, afterWrite, writeOver, revisionOf, ensureCategory, insertWithFreeSlug };
}
