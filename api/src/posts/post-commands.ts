import { slugify, type Post } from '@site/contracts/posts';
import { PUBLISH_ONLY_DRAFTS, adminPostPreviewRequestSchema, type RevisionAction } from '@site/contracts/admin';
import { SCHEDULE_MESSAGES } from '@site/contracts/post-schedule';
import { fieldIssues } from '@site/contracts/error';
import { ConflictError } from '../lib/domain-errors';
import type { StoredPost } from './posts-repository';
import { findPost, nextUpdatedAt, notFound, PostConflictError, toPost, type PostActor, type PostContext } from './post-model';
import type { PostService } from './post-service';
import { checkedPublishAt, PostValidationError, validatePost, writableFields, type ValidPost } from './post-validation';
import type { PostWriter } from './post-writer';
import { sanitizePostHtml } from './sanitize-post-html';

type PostCommands = Pick<PostService, 'create' | 'update' | 'delete' | 'previewContent' | 'publish' | 'schedule' | 'unschedule' | 'publishDue'>;

/** What changes a post: create, update, delete, and its way to the public (publish, schedule, the scheduler's run). */
export function createPostCommands(ctx: PostContext, writer: PostWriter): PostCommands {
  const { posts, clock, newId } = ctx;
  const { eventOf, afterWrite, writeOver, revisionOf, ensureCategory, insertWithFreeSlug } = writer;
  const mustFind = (id: string) => findPost(posts, id);

  return {
    async create(input, options = {}) {
      const v = validatePost(input);
      const nowDate = clock();
      const now = nowDate.toISOString();
      const status = options.allowStatus && v.status ? v.status : 'draft';
      if (v.publishAt !== undefined && status !== 'scheduled') {
        throw new PostValidationError([SCHEDULE_MESSAGES.onlyScheduled], [{ path: 'publishAt', message: SCHEDULE_MESSAGES.onlyScheduled }]);
      }
      const publishAt = status === 'scheduled' ? checkedPublishAt(v.publishAt, nowDate) : null;
      const actor = options.actor ?? (options.source === 'n8n' ? { kind: 'webhook', source: 'n8n' } : { kind: 'admin' });
      const categorySlug = slugify(v.category);
      await ensureCategory(v.category, categorySlug, now);
      // The database's unique index on the slug decides: two posts with one title written at once (by this process or
      // another instance) get two slugs, the loser of each race picking the next free one. The title's own slug is
      // tried first: a new title costs one indexed insert, and only a taken one reads the slugs like it (a scan).
      const post = await insertWithFreeSlug(
        (slug) => ({
          id: newId(),
          slug,
          ...writableFields(v, categorySlug, status),
          views: 0,
          source: options.source ?? 'local',
          publishedAt: status === 'published' ? now : null,
          publishAt,
          createdAt: now,
          updatedAt: now,
        }),
        slugify(v.title),
        'create',
        actor,
      );
      return toPost(post);
    },

    async update(id, input, options = {}) {
      const v = validatePost(input);
      // The write only lands on the version that was read (compare-and-set on updatedAt): a change made meanwhile by
      // another request or instance is a conflict for the form, and a plain retry for a caller without a version.
      for (let attempt = 0; attempt < 3; attempt++) {
        const written = await updateVersion(id, v, options.expectedUpdatedAt, options.actor ?? { kind: 'admin' });
        if (written) return written;
      }
      throw new PostConflictError(toPost(await mustFind(id)));
    },

    async delete(id, options = {}) {
      const existing = await mustFind(id);
      const gone: StoredPost = { ...existing, updatedAt: nextUpdatedAt(existing.updatedAt, clock()) };
      const actor = options.actor ?? { kind: 'admin' };
      const event = eventOf('post.deleted', gone);
      if (!(await posts.delete(id, revisionOf('delete', actor, existing, gone), event))) throw notFound();
      afterWrite(existing, undefined, actor, { event: event !== undefined });
    },

    previewContent(input) {
      const parsed = adminPostPreviewRequestSchema.safeParse(input);
      if (!parsed.success) {
        const issues = fieldIssues(parsed.error);
        throw new PostValidationError(issues.map((i) => `${i.path}: ${i.message}`), issues);
      }
      return { content: sanitizePostHtml(parsed.data.content.trim()) };
    },

    async publish(id, options = {}) {
      const actor = options.actor ?? { kind: 'admin' };
      const existing = await mustFind(id);
      if (existing.status !== 'draft' && existing.status !== 'scheduled') throw new ConflictError(PUBLISH_ONLY_DRAFTS);
      const nowDate = clock();
      const now = nowDate.toISOString();
      const updated: StoredPost = {
        ...existing,
        status: 'published',
        updatedAt: nextUpdatedAt(existing.updatedAt, nowDate),
        publishedAt: existing.publishedAt ?? now,
        publishAt: null,
      };
      // Still unpublished, and the version we read: of two publishes at once (two tabs, two instances) one wins, one is told.
      if (!(await writeOver(existing, updated, { updatedAt: existing.updatedAt, status: existing.status }, 'publish', actor))) {
        const current = await mustFind(id);
        if (current.status !== 'draft' && current.status !== 'scheduled') throw new ConflictError(PUBLISH_ONLY_DRAFTS);
        throw new PostConflictError(toPost(current));
      }
      return toPost(updated);
    },

    async schedule(id, publishAtInput, options = {}) {
      const existing = await mustFind(id);
      if (options.expectedUpdatedAt !== undefined && existing.updatedAt !== options.expectedUpdatedAt) throw new PostConflictError(toPost(existing));
      if (existing.status !== 'draft' && existing.status !== 'scheduled') throw new ConflictError(SCHEDULE_MESSAGES.onlyDraftsOrScheduled);
      const nowDate = clock();
      const publishAt = checkedPublishAt(publishAtInput, nowDate);
      const updated: StoredPost = { ...existing, status: 'scheduled', publishAt, updatedAt: nextUpdatedAt(existing.updatedAt, nowDate) };
      if (!(await writeOver(existing, updated, { updatedAt: existing.updatedAt, status: existing.status }, 'schedule', options.actor ?? { kind: 'admin' }))) {
        throw new PostConflictError(toPost(await mustFind(id)));
      }
      return toPost(updated);
    },

    async unschedule(id, options = {}) {
      const existing = await mustFind(id);
      if (existing.status !== 'scheduled') throw new ConflictError(SCHEDULE_MESSAGES.notScheduled);
      const updated: StoredPost = { ...existing, status: 'draft', publishAt: null, updatedAt: nextUpdatedAt(existing.updatedAt, clock()) };
      if (!(await writeOver(existing, updated, { updatedAt: existing.updatedAt, status: 'scheduled' }, 'unschedule', options.actor ?? { kind: 'admin' }))) {
        const current = await mustFind(id);
        if (current.status !== 'scheduled') throw new ConflictError(SCHEDULE_MESSAGES.notScheduled);
        throw new PostConflictError(toPost(current));
      }
      return toPost(updated);
    },

    async publishDue() {
      const done: Post[] = [];
      const actor: PostActor = { kind: 'schedule' };
      for (;;) {
        const nowDate = clock();
        const now = nowDate.toISOString();
        const due = await posts.dueScheduled(now, 50);
        let progressed = false;
        for (const existing of due) {
          const scheduledFor = existing.publishAt ?? now;
          const updated: StoredPost = { ...existing, status: 'published', publishedAt: scheduledFor, publishAt: null, updatedAt: nextUpdatedAt(existing.updatedAt, nowDate) };
          // The slot is taken by the write itself: of the instances that read this post as due, one write matches.
          if (!(await writeOver(existing, updated, { updatedAt: existing.updatedAt, status: 'scheduled', publishAtBefore: now }, 'publish', actor, { scheduledFor }))) continue;
          progressed = true;
          done.push(toPost(updated));
        }
        if (due.length < 50 || !progressed) return done;
      }
    },
  };

  /** One compare-and-set attempt; undefined when the post changed between the read and the write. */
  async function updateVersion(id: string, v: ValidPost, expectedUpdatedAt: string | undefined, actor: PostActor) {
    const existing = await mustFind(id);
    if (expectedUpdatedAt !== undefined && existing.updatedAt !== expectedUpdatedAt) throw new PostConflictError(toPost(existing));
    const nowDate = clock();
    const now = nowDate.toISOString();
    const categorySlug = slugify(v.category);
    const status = v.status ?? existing.status;
    if (v.publishAt !== undefined && status !== 'scheduled') {
      throw new PostValidationError([SCHEDULE_MESSAGES.onlyScheduled], [{ path: 'publishAt', message: SCHEDULE_MESSAGES.onlyScheduled }]);
    }
    // A scheduled post keeps its time unless a new one is sent; one becoming scheduled needs a time.
    const publishAt =
      status !== 'scheduled' ? null : v.publishAt !== undefined || existing.status !== 'scheduled' ? checkedPublishAt(v.publishAt, nowDate) : existing.publishAt;
    const updated: StoredPost = {
      ...existing,
      ...writableFields(v, categorySlug, status),
      publishedAt: status === 'published' ? (existing.publishedAt ?? now) : existing.publishedAt,
      publishAt,
      updatedAt: nextUpdatedAt(existing.updatedAt, nowDate),
    };
    await ensureCategory(v.category, categorySlug, now);
    const action: RevisionAction =
      status === existing.status ? 'update' : status === 'published' ? 'publish' : status === 'scheduled' ? 'schedule' : 'update';
    if (!(await writeOver(existing, updated, { updatedAt: existing.updatedAt }, action, actor))) return undefined;
    return toPost(updated);
  }
}
