import type { Kysely } from 'kysely';
import type { Database } from '../db/schema';
import type { PostsRepository } from './posts-repository';
import { toStoredRevision, type CountValue } from './posts-rows-repository';

type PostHistory = Pick<PostsRepository, 'revisions' | 'revision' | 'latestRevision' | 'deletedSince' | 'purgeDeleted'>;

/**
 * The revisions (`r`) that are the last of a deleted post: a delete, the post gone, no later revision (a post deleted,
 * restored and deleted again counts once, by its last delete). The posts Recently deleted lists, until purged.
 */
function lastDeleteRevisions(db: Kysely<Database>) {
  return db
    .selectFrom('blog_post_revisions as r')
    .where('r.action', '=', 'delete')
    .where((eb) => eb.not(eb.exists(eb.selectFrom('blog_posts as p').select('p.id').whereRef('p.id', '=', 'r.post_id'))))
    .where((eb) =>
      eb.not(
        eb.exists(
          eb.selectFrom('blog_post_revisions as later').select('later.id').whereRef('later.post_id', '=', 'r.post_id').whereRef('later.number', '>', 'r.number'),
        ),
      ),
    );
}

/** A post's history: its revisions (stored by the writes), and the deleted posts kept 30 days. */
export function createPostRevisionsRepository(db: Kysely<Database>): PostHistory {
  return {
    async revisions(postId, { limit, offset }) {
      const [rows, count] = await Promise.all([
        db.selectFrom('blog_post_revisions').selectAll().where('post_id', '=', postId).orderBy('number', 'desc').limit(limit).offset(offset).execute(),
        db
          .selectFrom('blog_post_revisions')
          .select((eb) => eb.fn.countAll<CountValue>().as('total'))
          .where('post_id', '=', postId)
          .executeTakeFirstOrThrow(),
      ]);
      return { revisions: rows.map(toStoredRevision), total: Number(count.total) };
    },

    async revision(postId, revisionId) {
      const row = await db.selectFrom('blog_post_revisions').selectAll().where('post_id', '=', postId).where('id', '=', revisionId).executeTakeFirst();
      return row ? toStoredRevision(row) : undefined;
    },

    async latestRevision(postId) {
      const row = await db.selectFrom('blog_post_revisions').selectAll().where('post_id', '=', postId).orderBy('number', 'desc').limit(1).executeTakeFirst();
      return row ? toStoredRevision(row) : undefined;
    },

    async deletedSince(since) {
      const rows = await lastDeleteRevisions(db)
        .selectAll('r')
        .where('r.created_at', '>=', since)
        .orderBy('r.created_at', 'desc')
        .limit(500)
        .execute();
      return rows.map(toStoredRevision);
    },

    async purgeDeleted(before) {
      // Posts whose last revision is a delete older than `before` (one deleted, restored and deleted again later stays).
      const stale = await lastDeleteRevisions(db).select('r.post_id').where('r.created_at', '<', before).execute();
      const ids = stale.map((row) => row.post_id);
      if (ids.length > 0) await db.deleteFrom('blog_post_revisions').where('post_id', 'in', ids).execute();
      // Their images are no longer held (the media library already ignored them past the 30 days).
      if (ids.length > 0) await db.deleteFrom('media_usage').where('post_id', 'in', ids).where('deleted_at', 'is not', null).execute();
      return ids.length;
    },
  };
}
