import { sql, type Kysely } from 'kysely';
import { POST_STATUSES, type PostStatus } from '@site/contracts/posts';
import type { Database } from '../db/schema';
import { underWalkSettings } from '../db/full-text-search';
import type { PostsRepository } from './posts-repository';
import type { PostsSearch } from './posts-search-repository';
import { SORTED_AT, SUMMARY_COLUMNS, toStoredPost, toStoredSummary, type CountValue } from './posts-rows-repository';

type PostsReads = Pick<
  PostsRepository,
  | 'list'
  | 'newestPublished'
  | 'publishedParts'
  | 'publishedFrom'
  | 'page'
  | 'pageBoth'
  | 'countByStatus'
  | 'findById'
  | 'findBySlug'
  | 'slugsLike'
  | 'dueScheduled'
  | 'nextScheduledAt'
  | 'listCategories'
>;

/** The posts' reads: lists and their pages, the feed and sitemap parts, one post, the schedule, the categories. */
export function createPostsReadRepository(db: Kysely<Database>, search: PostsSearch): PostsReads {
  const { filtered, count, walkIsCheaperPg } = search;
  const reads: PostsReads = {
    async list(filter = {}) {
      const rows = await filtered(filter).select(SUMMARY_COLUMNS).orderBy(SORTED_AT, 'desc').orderBy('created_at', 'desc').orderBy('id').execute();
      return rows.map(toStoredSummary);
    },

    async newestPublished(limit) {
      const rows = await db
        .selectFrom('blog_posts')
        .select(SUMMARY_COLUMNS)
        .where('status', '=', 'published')
        // The sitemap's order reversed (published_at, id): posts published in the same millisecond keep one order.
        .orderBy('published_at', 'desc')
        .orderBy('id', 'desc')
        .limit(limit)
        .execute();
      return rows.map(toStoredSummary);
    },

    async publishedParts(partSize) {
      // An integer literal: a bound number may arrive as a real on SQLite, and n / 20.0 is no part number.
      if (!Number.isSafeInteger(partSize) || partSize < 1) throw new Error(`a part size must be a whole number, got ${partSize}`);
      const size = sql.lit(partSize);
      // One pass over the published posts' keys in publication order, cut into parts of `size`: each part's first key,
      // its count and its newest change. Window functions: SQLite 3.25+ and PostgreSQL alike.
      const { rows } = await sql<{ part: CountValue; count: CountValue; lastmod: string; first_published_at: string; first_id: string }>`
        select part, count(*) as count, max(updated_at) as lastmod,
               min(case when n % ${size} = 0 then published_at end) as first_published_at,
               min(case when n % ${size} = 0 then id end) as first_id
        from (select id, published_at, updated_at, n, n / ${size} as part
              from (select id, published_at, updated_at, row_number() over (order by published_at, id) - 1 as n
                    from blog_posts where status = 'published') ranked) parts
        group by part
        order by part`.execute(db);
      return rows.map((r) => ({ first: { publishedAt: r.first_published_at, id: r.first_id }, count: Number(r.count), lastmod: r.lastmod }));
    },

    async publishedFrom(first, limit) {
      const rows = await db
        .selectFrom('blog_posts')
        .select(['slug', 'updated_at'])
        .where('status', '=', 'published')
        // A row-value range: both databases read it as a range of the (status, published_at, id) index (migration
        // 0025) from the part's first key, so a part costs its own rows at any number of posts.
        .where((eb) => eb(eb.refTuple('published_at', 'id'), '>=', eb.tuple(first.publishedAt, first.id)))
        .orderBy('published_at')
        .orderBy('id')
        .limit(limit)
        .execute();
      return rows.map((r) => ({ slug: r.slug, updatedAt: r.updated_at }));
    },

    async page(filter, { limit, after }) {
      let query = filtered(filter).select(SUMMARY_COLUMNS);
      if (after) {
        // Strictly after the position in the list's order (sortedAt desc, created_at desc, id asc).
        query = query.where((eb) =>
          eb.or([
            eb(SORTED_AT, '<', after.sortedAt),
            eb.and([eb(SORTED_AT, '=', after.sortedAt), eb('created_at', '<', after.createdAt)]),
            eb.and([eb(SORTED_AT, '=', after.sortedAt), eb('created_at', '=', after.createdAt), eb('id', '>', after.id)]),
          ]),
        );
      }
      const pageQuery = query.orderBy(SORTED_AT, 'desc').orderBy('created_at', 'desc').orderBy('id').limit(limit + 1).compile();
      const read = (on: Kysely<Database>) => Promise.all([on.executeQuery(pageQuery).then((r) => r.rows), count(filter, on)]);
      // A common search text (PostgreSQL): the page and the count walk the list's index newest first and stop, under
      // the walk's settings, rather than read and sort every GIN match as the planner chose for a prefix.
      const [rows, counted] = (await walkIsCheaperPg(filter)) ? await underWalkSettings(db, read) : await read(db);
      const posts = rows.slice(0, limit).map(toStoredSummary);
      const last = posts.at(-1);
      const next =
        rows.length > limit && last ? { sortedAt: last.publishedAt ?? last.createdAt, createdAt: last.createdAt, id: last.id } : undefined;
      return { posts, ...counted, next };
    },

    async pageBoth(filter, { limit, after, before }) {
      if (!before) {
        const page = await reads.page(filter, { limit, after });
        return { posts: page.posts, total: page.total, more: page.next !== undefined };
      }
      // Strictly before the position in the list's order, read the other way round from it, then turned round.
      const query = filtered(filter)
        .select(SUMMARY_COLUMNS)
        .where((eb) =>
          eb.or([
            eb(SORTED_AT, '>', before.sortedAt),
            eb.and([eb(SORTED_AT, '=', before.sortedAt), eb('created_at', '>', before.createdAt)]),
            eb.and([eb(SORTED_AT, '=', before.sortedAt), eb('created_at', '=', before.createdAt), eb('id', '<', before.id)]),
          ]),
        );
      const [rows, counted] = await Promise.all([query.orderBy(SORTED_AT).orderBy('created_at').orderBy('id', 'desc').limit(limit + 1).execute(), count(filter)]);
      const more = rows.length > limit;
      return { posts: rows.slice(0, limit).reverse().map(toStoredSummary), total: counted.total, more };
    },

    async countByStatus() {
      const rows = await db
        .selectFrom('blog_post_counts')
        .select('status')
        .select((eb) => eb.fn.sum<CountValue>('posts').as('total'))
        .groupBy('status')
        .execute();
      const counts = Object.fromEntries(POST_STATUSES.map((status) => [status, 0])) as Record<PostStatus, number>;
      for (const row of rows) if ((POST_STATUSES as readonly string[]).includes(row.status)) counts[row.status as PostStatus] = Number(row.total);
      return counts;
    },

    async findById(id) {
      const row = await db.selectFrom('blog_posts').selectAll().where('id', '=', id).executeTakeFirst();
      return row ? toStoredPost(row) : undefined;
    },

    async findBySlug(slug) {
      const row = await db.selectFrom('blog_posts').selectAll().where('slug', '=', slug).executeTakeFirst();
      return row ? toStoredPost(row) : undefined;
    },

    async slugsLike(base) {
      const rows = await db
        .selectFrom('blog_posts')
        .select('slug')
        .where((eb) => eb.or([eb('slug', '=', base), eb('slug', 'like', `${base}-%`)]))
        .execute();
      return new Set(rows.map((r) => r.slug));
    },

    async dueScheduled(now, limit) {
      const rows = await db
        .selectFrom('blog_posts')
        .selectAll()
        .where('status', '=', 'scheduled')
        .where('publish_at', '<=', now)
        .orderBy('publish_at')
        .limit(limit)
        .execute();
      return rows.map(toStoredPost);
    },

    async nextScheduledAt() {
      const row = await db
        .selectFrom('blog_posts')
        .select('publish_at')
        .where('status', '=', 'scheduled')
        .where('publish_at', 'is not', null)
        .orderBy('publish_at')
        .limit(1)
        .executeTakeFirst();
      return row?.publish_at ?? undefined;
    },

    async listCategories() {
      // Readers' counts: drafts and archived posts are nobody's business but the admin's, and a category whose posts
      // are all unpublished is not listed (its page is a 404).
      const rows = await db
        .selectFrom('blog_categories as c')
        .innerJoin('blog_post_counts as n', (join) => join.onRef('n.category_slug', '=', 'c.slug').on('n.status', '=', 'published').on('n.posts', '>', 0))
        .select(['c.id', 'c.name', 'c.slug', 'c.description', 'c.created_at', 'n.posts as post_count'])
        .orderBy('c.created_at')
        .orderBy('c.name')
        .execute();
      return rows.map((r) => ({ id: r.id, name: r.name, slug: r.slug, description: r.description, postCount: Number(r.post_count) }));
    },
  };
  return reads;
}
