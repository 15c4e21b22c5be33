import type { ExpressionBuilder, Kysely } from 'kysely';
import { PLACEHOLDER_IMAGE } from '@site/contracts/posts-rules';
import type { InTransaction } from '../db/in-transaction';
import type { Database } from '../db/schema';
import { imagesOfSnapshot, writeMediaUsage, type PostImages } from '../media/media-usage-repository';
import type { NewRevision, PostsRepository, StoredPost } from './posts-repository';
import { toRow } from './posts-rows-repository';

type PostsWrites = Pick<PostsRepository, 'insert' | 'update' | 'delete' | 'incrementViews' | 'ensureCategory'>;

/**
 * The stored row already has every field a restore writes as `post` has it (`RESTORED_FIELDS` of the admin contract,
 * and `isCurrentVersion`'s rule): images as readers get them, a missing featured image being the placeholder and a
 * missing OG image the featured image. Every column compared is NOT NULL but the images, which are coalesced: the
 * condition is true or false, never null.
 */
function sameRestoredFields(eb: ExpressionBuilder<Database, 'blog_posts'>, post: StoredPost) {
  const row = toRow(post);
  const featured = post.featuredImage ?? PLACEHOLDER_IMAGE;
  return eb.and([
    eb('title', '=', row.title),
    eb('excerpt', '=', row.excerpt),
    eb('content', '=', row.content),
    eb('keywords', '=', row.keywords),
    eb('author', '=', row.author),
    eb('category', '=', row.category),
    eb('category_slug', '=', row.category_slug),
    eb('meta_description', '=', row.meta_description),
    eb(eb.fn.coalesce('featured_image', eb.val(PLACEHOLDER_IMAGE)), '=', featured),
    eb(eb.fn.coalesce('og_image', 'featured_image', eb.val(PLACEHOLDER_IMAGE)), '=', post.ogImage ?? featured),
  ]);
}

/** The posts' writes: each with its revision, its events and the media it uses, in one transaction. */
export function createPostsWriteRepository(db: Kysely<Database>): PostsWrites {

  /**
   * Runs a write, and with a revision stores it in the same transaction, numbered after the post's last one, only
   * when the write happened (a compare-and-set that matched nothing stores no revision); `also` (the change's outgoing
   * events) likewise. The media the post uses after the write (`images`; null when it is gone for good) are rewritten
   * in the same transaction, so the media library's table never disagrees with the posts.
   */
  async function writeWith(
    revision: NewRevision | undefined,
    postId: string,
    write: (trx: Kysely<Database>) => Promise<boolean>,
    also: InTransaction | undefined,
    images: PostImages | null,
  ) {
    return db.transaction().execute(async (trx) => {
      if (!(await write(trx))) return false;
      if (also) await also(trx);
      await writeMediaUsage(trx, postId, images);
      if (!revision) return true;
      const last = await trx
        .selectFrom('blog_post_revisions')
        .select((eb) => eb.fn.max<number | string | null>('number').as('number'))
        .where('post_id', '=', postId)
        .executeTakeFirst();
      await trx
        .insertInto('blog_post_revisions')
        .values({
          id: revision.id,
          post_id: postId,
          number: Number(last?.number ?? 0) + 1,
          created_at: revision.createdAt,
          action: revision.action,
          author_kind: revision.authorKind,
          author_label: revision.authorLabel,
          changed_fields: JSON.stringify(revision.changedFields),
          restored_from: revision.restoredFrom,
          snapshot: JSON.stringify(revision.snapshot),
        })
        .execute();
      return true;
    });
  }

  return {
    async insert(post, revision, also) {
      try {
        await writeWith(
          revision,
          post.id,
          async (trx) => {
            await trx.insertInto('blog_posts').values(toRow(post)).execute();
            return true;
          },
          also,
          { ...post, deletedAt: null },
        );
        return true;
      } catch (error) {
        if (isSlugTaken(error)) return false;
        throw error;
      }
    },

    async update(post, where = {}, revision, also) {
      return writeWith(
        revision,
        post.id,
        async (trx) => {
          const { id, ...rest } = toRow(post);
          let query = trx.updateTable('blog_posts').set(rest).where('id', '=', id);
          if (where.updatedAt !== undefined) query = query.where('updated_at', '=', where.updatedAt);
          if (where.status !== undefined) query = query.where('status', '=', where.status);
          if (where.publishAtBefore !== undefined) query = query.where('publish_at', '<=', where.publishAtBefore);
          // A restore lands only where it changes something: decided by this UPDATE, not by a read before it.
          if (where.changesRestoredFields) query = query.where((eb) => eb.not(sameRestoredFields(eb, post)));
          const result = await query.executeTakeFirst();
          return Number(result.numUpdatedRows) > 0;
        },
        also,
        { ...post, deletedAt: null },
      );
    },

    async delete(id, revision, also) {
      return writeWith(
        revision,
        id,
        async (trx) => {
          const result = await trx.deleteFrom('blog_posts').where('id', '=', id).executeTakeFirst();
          return Number(result.numDeletedRows) > 0;
        },
        also,
        // Restorable from its delete revision for 30 days: until then it still uses its images.
        revision ? imagesOfSnapshot(revision.snapshot, revision.createdAt) : null,
      );
    },

    async incrementViews(slug) {
      await db
        .updateTable('blog_posts')
        .set((eb) => ({ views: eb('views', '+', 1) }))
        .where('slug', '=', slug)
        .where('status', '=', 'published')
        .execute();
      const row = await db
        .selectFrom('blog_posts')
        .select('views')
        .where('slug', '=', slug)
        .where('status', '=', 'published')
        .executeTakeFirst();
      return row ? Number(row.views) : undefined;
    },

    async ensureCategory(category) {
      await db
        .insertInto('blog_categories')
        .values({ id: category.id, name: category.name, slug: category.slug, description: category.description, created_at: category.createdAt })
        .onConflict((oc) => oc.doNothing())
        .execute();
    },
  };
}

/** The unique index on blog_posts.slug refused a row: SQLite's and PostgreSQL's words for it. */
function isSlugTaken(error: unknown): boolean {
  const e = error as { code?: unknown; constraint?: unknown; message?: unknown } | null;
  if (!e) return false;
  // PostgreSQL: unique_violation on the slug's index (blog_posts_slug_key).
  if (e.code === '23505') return typeof e.constraint === 'string' && e.constraint.includes('slug');
  // SQLite (libsql): "UNIQUE constraint failed: blog_posts.slug".
  return typeof e.message === 'string' && /UNIQUE constraint failed: blog_posts\.slug\b/.test(e.message);
}
