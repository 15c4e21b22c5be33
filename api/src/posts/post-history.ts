import { slugify } from '@site/contracts/posts';
import {
  DELETED_POST_RETENTION_MS,
  REVISION_ACTIONS,
  REVISION_AUTHOR_KINDS,
  REVISION_IS_CURRENT,
  postRevisionListQuerySchema,
  revisionPostSchema,
  type PostRevisionSummary,
  type RevisionAction,
  type RevisionPost,
} from '@site/contracts/admin';
import { describeIssues, fieldIssues } from '@site/contracts/error';
import { isRecordKey } from '@site/contracts/text';
import { ConflictError, InvalidInputError, NotFoundError } from '../lib/domain-errors';
import type { StoredPost, StoredRevision } from './posts-repository';
import { findPost, nextUpdatedAt, notFound, PostConflictError, toPost, type PostContext } from './post-model';
import type { PostService } from './post-service';
import { validateRevisionFields, writableFields } from './post-validation';
import type { PostWriter } from './post-writer';

export const REVISION_NOT_FOUND = 'Revision not found';
export const DELETED_POST_NOT_FOUND = 'This post was not deleted in the last 30 days';

function toRevisionSummary(r: StoredRevision): PostRevisionSummary {
  const snapshot = r.snapshot as Partial<RevisionPost>;
  return {
    id: r.id,
    postId: r.postId,
    number: r.number,
    createdAt: r.createdAt,
    action: (REVISION_ACTIONS as readonly string[]).includes(r.action) ? (r.action as RevisionAction) : 'update',
    author: {
      kind: (REVISION_AUTHOR_KINDS as readonly string[]).includes(r.authorKind) ? (r.authorKind as PostRevisionSummary['author']['kind']) : 'system',
      label: r.authorLabel,
    },
    changedFields: r.changedFields,
    restoredFrom: r.restoredFrom,
    title: typeof snapshot.title === 'string' ? snapshot.title : '',
    status: snapshot.status ?? 'draft',
  };
}

type PostHistory = Pick<PostService, 'revisions' | 'revision' | 'restoreRevision' | 'listDeleted' | 'undelete' | 'purgeDeleted'>;

/** A post's history: its revisions and a restore from one, and the deleted posts kept 30 days (list, undelete, purge). */
export function createPostHistory(ctx: PostContext, writer: PostWriter): PostHistory {
  const { posts, clock } = ctx;
  const { writeOver, ensureCategory, insertWithFreeSlug } = writer;
  const mustFind = (id: string) => findPost(posts, id);

  const history: PostHistory = {
    async revisions(id, input = {}) {
      if (!isRecordKey(id)) throw notFound();
      const parsed = postRevisionListQuerySchema.safeParse(input);
      if (!parsed.success) {
        const issues = fieldIssues(parsed.error);
        throw new InvalidInputError(describeIssues(issues), { details: issues });
      }
      const { page, limit } = parsed.data;
      const found = await posts.revisions(id, { limit, offset: (page - 1) * limit });
      if (found.total === 0) throw notFound();
      return { revisions: found.revisions.map(toRevisionSummary), total: found.total, page, limit };
    },

    async revision(id, revisionId) {
      if (!isRecordKey(id) || !isRecordKey(revisionId)) throw new NotFoundError(REVISION_NOT_FOUND);
      const found = await posts.revision(id, revisionId);
      if (!found) throw new NotFoundError(REVISION_NOT_FOUND);
      const post = revisionPostSchema.safeParse(found.snapshot);
      if (!post.success) throw new NotFoundError(REVISION_NOT_FOUND);
      return { ...toRevisionSummary(found), post: post.data };
    },

    async restoreRevision(id, revisionId, options) {
      const existing = await mustFind(id);
      if (existing.updatedAt !== options.expectedUpdatedAt) throw new PostConflictError(toPost(existing));
      const { post: old, number } = await history.revision(id, revisionId);
      // The sanitizer and the rules run again: what was stored then is checked as if it were sent now.
      const v = validateRevisionFields(old);
      const nowDate = clock();
      const now = nowDate.toISOString();
      const categorySlug = slugify(v.category);
      // The status (and with it the schedule and publishing date) is the post's now: a published post stays published.
      const updated: StoredPost = { ...existing, ...writableFields(v, categorySlug, existing.status), updatedAt: nextUpdatedAt(existing.updatedAt, nowDate) };
      await ensureCategory(v.category, categorySlug, now);
      // The UPDATE itself refuses a restore that would change nothing (the post already has the revision's fields), in
      // the same statement as the compare-and-set on updatedAt: no read before it decides, so no write can slip between
      // a check and the restore, and a refused restore stores no revision ("Restored revision #n" of nothing) and no event.
      const where = { updatedAt: existing.updatedAt, changesRestoredFields: true };
      if (!(await writeOver(existing, updated, where, 'restore', options.actor ?? { kind: 'admin' }, { restoredFrom: number }))) {
        const current = await mustFind(id);
        // Still the version the restore was checked against: what refused it was its fields, the post's already.
        if (current.updatedAt === existing.updatedAt) throw new ConflictError(REVISION_IS_CURRENT.message, { code: REVISION_IS_CURRENT.code });
        throw new PostConflictError(toPost(current));
      }
      return toPost(updated);
    },

    async listDeleted() {
      const since = new Date(clock().getTime() - DELETED_POST_RETENTION_MS).toISOString();
      const deleted = await posts.deletedSince(since);
      return deleted.flatMap((r) => {
        const snapshot = revisionPostSchema.safeParse(r.snapshot);
        if (!snapshot.success) return [];
        return [
          {
            id: r.postId,
            title: snapshot.data.title,
            slug: snapshot.data.slug,
            status: snapshot.data.status,
            deletedAt: r.createdAt,
            purgeAt: new Date(Date.parse(r.createdAt) + DELETED_POST_RETENTION_MS).toISOString(),
          },
        ];
      });
    },

    async undelete(id, options = {}) {
      if (!isRecordKey(id)) throw new NotFoundError(DELETED_POST_NOT_FOUND);
      const last = await posts.latestRevision(id);
      const nowDate = clock();
      if (!last || last.action !== 'delete' || Date.parse(last.createdAt) < nowDate.getTime() - DELETED_POST_RETENTION_MS || (await posts.findById(id))) {
        throw new NotFoundError(DELETED_POST_NOT_FOUND);
      }
      const old = revisionPostSchema.safeParse(last.snapshot);
      if (!old.success) throw new NotFoundError(DELETED_POST_NOT_FOUND);
      const v = validateRevisionFields(old.data);
      const now = nowDate.toISOString();
      const categorySlug = slugify(v.category);
      await ensureCategory(v.category, categorySlug, now);
      // Back as a draft: the owner decides whether it goes public again. Its address is kept when still free.
      const post = await insertWithFreeSlug(
        (slug) => ({
          id,
          slug,
          ...writableFields(v, categorySlug, 'draft'),
          views: 0,
          source: 'local',
          publishedAt: old.data.publishedAt,
          publishAt: null,
          createdAt: now,
          updatedAt: now,
        }),
        slugify(v.title),
        'undelete',
        options.actor ?? { kind: 'admin' },
        old.data.slug,
      );
      return toPost(post);
    },

    async purgeDeleted() {
      return posts.purgeDeleted(new Date(clock().getTime() - DELETED_POST_RETENTION_MS).toISOString());
    },
  };
  return history;
}
