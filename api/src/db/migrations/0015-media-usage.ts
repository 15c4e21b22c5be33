import type { Kysely } from 'kysely';
import type { Migration } from './migration';

/** The hash in a `/media/<hash>-…` URL (absolute or site path), as the media library matched it when this was written. */
const HASH_IN_URL = /\/media\/([0-9a-f]{24})-/;

const hashIn = (value: unknown) => (typeof value === 'string' ? HASH_IN_URL.exec(value)?.[1] : undefined);

interface UsageRow {
  post_id: string;
  field: string;
  hash: string;
  title: string;
  deleted_at: string | null;
}

function usesOf(postId: string, post: { title: unknown; featuredImage: unknown; ogImage: unknown }, deletedAt: string | null): UsageRow[] {
  const rows: UsageRow[] = [];
  for (const [field, value] of [
    ['featuredImage', post.featuredImage],
    ['ogImage', post.ogImage],
  ] as const) {
    const hash = hashIn(value);
    if (hash) rows.push({ post_id: postId, field, hash, title: typeof post.title === 'string' ? post.title : '', deleted_at: deletedAt });
  }
  return rows;
}

/**
 * Where each media file is used (issue 32): one row per post and image field that names a `/media/<hash>-…` URL,
 * written with every write of the post in its transaction, so the media library and its delete guard read an index
 * instead of matching every post's fields with LIKE (which grew with the data, and on SQLite failed past 500 images).
 *
 * A deleted post keeps its rows with `deleted_at` (when it was deleted): it can be restored for 30 days with its
 * images, so it still uses them until then; readers filter by that time, so nothing has to expire the rows.
 *
 * Backfilled from what is stored now: every post's featured and Open Graph image, and each deleted post's last
 * version (its last revision, a delete, with no post of that id left), in batches.
 */
export const mediaUsageMigration: Migration = {
  name: '0015-media-usage',
  async up(db: Kysely<any>) {
    await db.schema
      .createTable('media_usage')
      .addColumn('post_id', 'text', (col) => col.notNull())
      .addColumn('field', 'text', (col) => col.notNull())
      .addColumn('hash', 'text', (col) => col.notNull())
      .addColumn('title', 'text', (col) => col.notNull())
      .addColumn('deleted_at', 'text')
      .addPrimaryKeyConstraint('media_usage_pk', ['post_id', 'field'])
      .execute();
    await db.schema.createIndex('media_usage_hash_idx').on('media_usage').columns(['hash', 'deleted_at']).execute();

    const insert = async (rows: UsageRow[]) => {
      if (rows.length > 0) await db.insertInto('media_usage').values(rows).execute();
    };
    let after = '';
    for (;;) {
      const posts = (await db
        .selectFrom('blog_posts')
        .select(['id', 'title', 'featured_image', 'og_image'])
        .where('id', '>', after)
        .orderBy('id')
        .limit(500)
        .execute()) as Array<{ id: string; title: string; featured_image: string | null; og_image: string | null }>;
      if (posts.length === 0) break;
      await insert(posts.flatMap((p) => usesOf(p.id, { title: p.title, featuredImage: p.featured_image, ogImage: p.og_image }, null)));
      after = posts.at(-1)!.id;
    }

    after = '';
    for (;;) {
      const deleted = (await db
        .selectFrom('blog_post_revisions as r')
        .select(['r.post_id', 'r.created_at', 'r.snapshot'])
        .where('r.action', '=', 'delete')
        .where('r.post_id', '>', after)
        .where((eb) => eb.not(eb.exists(eb.selectFrom('blog_posts as p').select('p.id').whereRef('p.id', '=', 'r.post_id'))))
        .where((eb) =>
          eb.not(
            eb.exists(
              eb.selectFrom('blog_post_revisions as later').select('later.id').whereRef('later.post_id', '=', 'r.post_id').whereRef('later.number', '>', 'r.number'),
            ),
          ),
        )
        .orderBy('r.post_id')
        .limit(500)
        .execute()) as Array<{ post_id: string; created_at: string; snapshot: string }>;
      if (deleted.length === 0) break;
      await insert(
        deleted.flatMap((r) => {
          let post: Record<string, unknown> = {};
          try {
            const parsed: unknown = JSON.parse(r.snapshot);
            if (parsed && typeof parsed === 'object') post = parsed as Record<string, unknown>;
          } catch {
            // An unreadable snapshot cannot be restored: it uses nothing.
          }
          return usesOf(r.post_id, { title: post.title, featuredImage: post.featuredImage, ogImage: post.ogImage }, r.created_at);
        }),
      );
      after = deleted.at(-1)!.post_id;
    }
  },
  async down(db: Kysely<any>) {
    await db.schema.dropTable('media_usage').execute();
  },
};
