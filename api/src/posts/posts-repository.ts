import { sql, type Kysely } from 'kysely';
import { POST_STATUSES, type PostSource, type PostStatus } from '@site/contracts/posts';
import { searchWords } from '@site/contracts/search-rules';
import type { BlogPostRevisionsTable, BlogPostRow } from './blog-schema';
import type { Selectable } from 'kysely';

type BlogPostRevisionRow = Selectable<BlogPostRevisionsTable>;
import type { InTransaction } from '../db/in-transaction';
import type { Database } from '../db/schema';
import { imagesOfSnapshot, writeMediaUsage, type PostImages } from '../media/media-usage-repository';
import { underWalkSettings, bestInIndex, bestOfFew, bestOfWindow, countUpTo, inOrderOf, isPostgres, newestWindow, scanWasFull, searchFor, SEARCH_RANK_LIMIT, SEARCH_SCAN_LIMIT, tsQuery, type BoundedCount, type RankedRows } from '../db/full-text-search';

/** A post as stored: image fields may be null (the service resolves the fallbacks). */
export interface StoredPost {
  id: string;
  slug: string;
  title: string;
  excerpt: string;
  content: string;
  keywords: string[];
  author: string;
  category: string;
  categorySlug: string;
  status: PostStatus;
  featuredImage: string | null;
  ogImage: string | null;
  readTime: number;
  views: number;
  metaDescription: string;
  source: PostSource;
  publishedAt: string | null;
  /** A scheduled post's publishing time (ISO UTC); null for any other status. */
  publishAt: string | null;
  createdAt: string;
  updatedAt: string;
}

/** A revision to store with a write (the same transaction): everything but its number, which the repository gives. */
export interface NewRevision {
  id: string;
  createdAt: string;
  action: string;
  authorKind: string;
  authorLabel: string;
  changedFields: string[];
  restoredFrom: number | null;
  /** The post's fields as stored by this write (admin contract `revisionPostSchema`). */
  snapshot: Record<string, unknown>;
}

export interface StoredRevision extends Omit<NewRevision, 'snapshot'> {
  postId: string;
  number: number;
  snapshot: Record<string, unknown>;
}

/** A post as a list shows it: every stored field but the article itself (lists never read `content`). */
export type StoredPostSummary = Omit<StoredPost, 'content'>;

export interface StoredCategory {
  id: string;
  name: string;
  slug: string;
  description: string;
  /** Derived: the number of published posts in the category, never stored. */
  postCount: number;
}

/** Which posts a list shows: status, category slug, and search text over title, excerpt and category. */
export interface PostFilter {
  status?: PostStatus;
  categorySlug?: string;
  q?: string;
}

/** Where a page starts: the sort key of the last post of the previous page (newest first, see `list`). */
export interface PostPosition {
  /** Published date, or creation date for a post never published. */
  sortedAt: string;
  createdAt: string;
  id: string;
}

/** A published post's place in publication order. */
export interface PublishedKey {
  publishedAt: string;
  id: string;
}

export interface PublishedPart {
  first: PublishedKey;
  count: number;
  /** The newest `updated_at` of the part. */
  lastmod: string;
}

export interface PostPage extends BoundedCount {
  posts: StoredPostSummary[];
  /**
   * Every post matching the filter, across all pages; with search text counted up to SEARCH_RANK_LIMIT
   * (`totalIsLowerBound` when more match).
   */
  total: number;
  /** Position of the last post when more follow. */
  next: PostPosition | undefined;
}

export interface PostsRepository {
  /** Newest first (published date, then creation). Lists read no article content. */
  list(filter?: PostFilter): Promise<StoredPostSummary[]>;
  /** One page of `list`: up to `limit` posts after `after` (keyset pagination, stable while posts are added). */
  page(filter: PostFilter, options: { limit: number; after?: PostPosition }): Promise<PostPage>;
  /**
   * The admin's search: the best `limit` posts matching `filter.q` among the newest SEARCH_RANK_LIMIT (1,000) matches
   * of the filter (best match first, then `list`'s order) and `total`, the matches counted up to SEARCH_RANK_LIMIT
   * (`totalIsLowerBound` when more match). One page: a rank is no stable position to page from.
   */
  ranked(filter: PostFilter, limit: number): Promise<{ posts: StoredPostSummary[] } & BoundedCount>;
  /**
   * The admin's pages of `list` by keyset: up to `limit` posts `after` a position (older) or `before` one (newer),
   * read from the order indexes (migration 0008), never an OFFSET; `more` says whether another page lies beyond in
   * the direction read; `total` from the kept counts (migration 0009).
   */
  pageBoth(filter: PostFilter, options: { limit: number; after?: PostPosition; before?: PostPosition }): Promise<{ posts: StoredPostSummary[]; total: number; more: boolean }>;
  /** How many posts have each status, over every post (one grouped count); 0 for a status no post has. */
  countByStatus(): Promise<Record<PostStatus, number>>;
  /** The newest `limit` published posts, newest first (the feed): read through the (status, published_at) index. */
  newestPublished(limit: number): Promise<StoredPostSummary[]>;
  /**
   * The published posts cut into parts of `size`, oldest first (published date, then id), so that a new post only
   * changes the last part: each part's first post, its size and its newest change. Reads the index keys, no post.
   */
  publishedParts(size: number): Promise<PublishedPart[]>;
  /** Up to `limit` published posts from `first` on (inclusive), oldest first: one part of `publishedParts`. */
  publishedFrom(first: PublishedKey, limit: number): Promise<Array<{ slug: string; updatedAt: string }>>;
  findById(id: string): Promise<StoredPost | undefined>;
  findBySlug(slug: string): Promise<StoredPost | undefined>;
  /** Slugs equal to `base` or `base-<n>`, to pick the next free one. */
  slugsLike(base: string): Promise<Set<string>>;
  /**
   * Stores a new post: `false` when its slug is taken (the unique index decides, whichever instance wrote first), so
   * the caller picks another; any other failure throws.
   */
  insert(post: StoredPost, revision?: NewRevision, also?: InTransaction): Promise<boolean>;
  /**
   * Writes every field of the post: `false` when nothing matched, i.e. the post is gone or, with a condition, it no
   * longer has that `updatedAt` / status (another request changed it first). A compare-and-set in one UPDATE.
   */
  update(
    post: StoredPost,
    where?: { updatedAt?: string; status?: PostStatus; publishAtBefore?: string },
    revision?: NewRevision,
    also?: InTransaction,
  ): Promise<boolean>;
  /** Deletes the post (and stores `revision`, its last state, in the same transaction); false when there was none. */
  delete(id: string, revision?: NewRevision, also?: InTransaction): Promise<boolean>;
  /** Scheduled posts whose time is at or before `now`, oldest time first (the scheduler's work). */
  dueScheduled(now: string, limit: number): Promise<StoredPost[]>;
  /** The earliest time of a scheduled post, if any (the scheduler sets its timer by it). */
  nextScheduledAt(): Promise<string | undefined>;
  /** A post's revisions, newest first, and how many it has. */
  revisions(postId: string, options: { limit: number; offset: number }): Promise<{ revisions: StoredRevision[]; total: number }>;
  revision(postId: string, revisionId: string): Promise<StoredRevision | undefined>;
  /** The last revision of a post (for a deleted post: its delete revision). */
  latestRevision(postId: string): Promise<StoredRevision | undefined>;
  /** Delete revisions since `since` of posts that do not exist now, newest first. */
  deletedSince(since: string): Promise<StoredRevision[]>;
  /** Drops every revision of posts deleted before `before` (and not restored). Answers how many posts' histories went. */
  purgeDeleted(before: string): Promise<number>;
  /** Adds 1 to the views of a published post; the new count, or undefined when there is none. */
  incrementViews(slug: string): Promise<number | undefined>;
  /** The categories that have published posts, with their number of published posts. */
  listCategories(): Promise<StoredCategory[]>;
  /** Creates the category unless one with this slug exists. */
  ensureCategory(category: { id: string; name: string; slug: string; description: string; createdAt: string }): Promise<void>;
}

/** Newest first: the published date, or the creation date of a post never published. */
const SORTED_AT = sql<string>`coalesce(published_at, created_at)`;
/** PostgreSQL: how many of the filter's newest posts tell whether a common text is cheaper walked than looked up (newestPostsPg). */
export const PG_POSTS_PROBE = 300;

type CountValue = number | string | bigint;

/** Storage of posts and categories. One SQL path for SQLite and PostgreSQL. */
/**
 * The revisions (`r`) that are the last of a deleted post: a delete, the post gone, no later revision (a post deleted,
 * restored and deleted again counts once, by its last delete). The posts Recently deleted lists, until purged.
 */
export function lastDeleteRevisions(db: Kysely<Database>) {
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

export function createPostsRepository(db: Kysely<Database>): PostsRepository {
  /**
   * The posts matching a filter: the one search implementation. Search text goes through the full-text index
   * (db/full-text-search.ts: every word, the last one as a prefix, in title, excerpt or category); text without a
   * word (only punctuation) matches no post.
   */
  function filtered({ status, categorySlug, q }: PostFilter, ranked = false) {
    const search = searchFor(db, 'blog_posts', q);
    let query = (ranked && search.ranked) || search.from;
    // A ranked search with a filter looks at the newest SEARCH_SCAN_LIMIT matches of its text at most (SQLite).
    if (ranked && search.ranked && search.scanFloor && (status || categorySlug)) query = query.where(search.scanFloor);
    if (status) query = query.where('status', '=', status);
    if (categorySlug) query = query.where('category_slug', '=', categorySlug);
    return query;
  }

  /** The filter's posts in the list's order: newest published first (then created), ties by id. */
  const newestFirst = <Q extends ReturnType<typeof filtered>>(q: Q) => q.orderBy(SORTED_AT, 'desc').orderBy('created_at', 'desc').orderBy('id');

  /**
   * PostgreSQL: whether the posts matching a search are cheaper found by walking the filter's posts newest first in the
   * list's own index than looked up in the GIN index. The share of matches among the newest PG_POSTS_PROBE posts of
   * the filter (d) and the filter's posts (N, from the counts the database keeps) estimate the walk to the 1,001st
   * match at 1,001 / d rows and the GIN way at d * N; the cheaper is taken. False on SQLite and for text without a word.
   * The planner cannot tell: it guesses a prefix (a search's last word) matches 2% of the posts, whatever it starts.
   */
  async function walkIsCheaperPg(filter: PostFilter): Promise<boolean> {
    const words = searchWords(filter.q ?? '');
    if (!isPostgres(db) || words.length === 0) return false;
    const query = sql`to_tsquery('simple'::regconfig, ${tsQuery(words)})`;
    const list = { status: filter.status, categorySlug: filter.categorySlug };
    const [probe, posts] = await Promise.all([
      db
        .selectFrom(newestFirst(filtered(list)).select(sql<string>`blog_posts.search_vector`.as('search_vector')).limit(PG_POSTS_PROBE).as('p'))
        .select((eb) => [eb.fn.countAll<CountValue>().as('read'), eb.fn.count<CountValue>(sql`case when p.search_vector @@ ${query} then 1 end`).as('matched')])
        .executeTakeFirstOrThrow(),
      count(list),
    ]);
    const share = Number(probe.read) > 0 ? Number(probe.matched) / Number(probe.read) : 0;
    return share > 0 && (SEARCH_RANK_LIMIT + 1) / share < share * posts.total;
  }

  /**
   * PostgreSQL, a text more than SEARCH_RANK_LIMIT posts match (`bestOfFew` said so): when it is common among the
   * newest posts (`walkIsCheaperPg`), the window is read by walking the filter's posts newest first in the list's own
   * index, stopping at the SEARCH_RANK_LIMIT + 1st match, instead of reading every match the GIN index finds to keep
   * the newest. Undefined (the GIN way) when the walk is not cheaper or finds at most SEARCH_RANK_LIMIT matches.
   */
  async function newestPostsPg(filter: PostFilter, limit: number): Promise<{ ids: string[]; matches: number } | undefined> {
    if (!(await walkIsCheaperPg(filter))) return undefined;
    const query = sql`to_tsquery('simple'::regconfig, ${tsQuery(searchWords(filter.q ?? ''))})`;
    const list = { status: filter.status, categorySlug: filter.categorySlug };
    const walked = newestFirst(filtered(list))
      .select(['id', 'created_at', SORTED_AT.as('sorted_at'), sql<string>`blog_posts.search_vector`.as('search_vector')])
      .limit(SEARCH_SCAN_LIMIT)
      .as('w');
    const window = db
      .selectFrom(walked)
      .select(['w.id', 'w.created_at', 'w.sorted_at', sql<number>`-ts_rank(w.search_vector, ${query})`.as('search_rank'), sql<string>`w.sorted_at`.as('newest_key')])
      .where(sql<boolean>`w.search_vector @@ ${query}`)
      .orderBy('w.sorted_at', 'desc')
      .orderBy('w.created_at', 'desc')
      .orderBy('w.id')
      .limit(SEARCH_RANK_LIMIT + 1);
    // The walk must be the plan: PostgreSQL misjudges how many posts a prefix matches and would sort every post or
    // GIN match instead; PG_WALK_SETTINGS leave the list's index as the only choice, for this transaction only.
    const best = await underWalkSettings(db, (trx) => bestOfWindow(trx, window as unknown as RankedRows, sql`sorted_at desc, created_at desc, id`, limit));
    return best.matches > SEARCH_RANK_LIMIT ? best : undefined;
  }

  /**
   * How many posts match a filter (PostgreSQL answers a bigint count or sum as text; SQLite as a number): with search
   * text, the matches counted up to SEARCH_RANK_LIMIT (the count stops there: `totalIsLowerBound`), whatever their
   * number; without, from the counts the database keeps per status and category (blog_post_counts): one row, not a
   * count over every post. `on`: the connection or transaction that counts.
   */
  async function count(filter: PostFilter, on: Kysely<Database> = db): Promise<BoundedCount> {
    if (filter.q?.trim()) return countUpTo(on, filtered(filter));
    let query = db.selectFrom('blog_post_counts').select((eb) => eb.fn.coalesce(eb.fn.sum<CountValue>('posts'), eb.lit(0)).as('total'));
    if (filter.status) query = query.where('status', '=', filter.status);
    if (filter.categorySlug) query = query.where('category_slug', '=', filter.categorySlug);
    const row = await query.executeTakeFirstOrThrow();
    return { total: Number(row.total), totalIsLowerBound: false };
  }

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

    async ranked(filter, limit) {
      // With search text, best match first (then newest): the admin's search ranks; the public list keeps its order.
      // Among the newest SEARCH_RANK_LIMIT matches of the filter: the cost of ranking and of counting stays that of
      // 1,000 matches (db/full-text-search.ts).
      const { rank, newest } = searchFor(db, 'blog_posts', filter.q);
      if (!rank || !newest) return { posts: [], total: 0, totalIsLowerBound: false };
      const filteredToo = Boolean(filter.status || filter.categorySlug);
      // SQLite without a filter: ranked in the FTS index, the page's candidates read from the table (bestInIndex).
      const inIndex = filteredToo ? undefined : await bestInIndex(db, 'blog_posts', filter.q!, sql`coalesce(t.published_at, t.created_at) desc, t.created_at desc, t.id`, limit);
      // Else the window is read narrow (id, rank, dates), then the page's posts by id: the sort holds no text.
      const matching = filtered(filter, true).select(['id', 'created_at', SORTED_AT.as('sorted_at'), rank.as('search_rank'), newest.as('newest_key')]);
      const ties = sql`sorted_at desc, created_at desc, id`;
      const best =
        inIndex ??
        (await bestOfFew(db, matching as unknown as RankedRows, ties, limit)) ??
        (await newestPostsPg(filter, limit)) ??
        (await bestOfWindow(db, newestWindow(db, matching as unknown as RankedRows, newest), ties, limit));
      const rows = await inOrderOf(best.ids, (ids) => db.selectFrom('blog_posts').select(SUMMARY_COLUMNS).where('id', 'in', ids).execute());
      const more = best.matches > SEARCH_RANK_LIMIT || (filteredToo && (await scanWasFull(db, 'blog_posts', filter.q!)));
      return { posts: rows.map(toStoredSummary), total: Math.min(best.matches, SEARCH_RANK_LIMIT), totalIsLowerBound: more };
    },

    async pageBoth(filter, { limit, after, before }) {
      if (!before) {
        const page = await this.page(filter, { limit, after });
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

function toRow(post: StoredPost) {
  return {
    id: post.id,
    slug: post.slug,
    title: post.title,
    excerpt: post.excerpt,
    content: post.content,
    keywords: JSON.stringify(post.keywords),
    author: post.author,
    category: post.category,
    category_slug: post.categorySlug,
    status: post.status,
    featured_image: post.featuredImage,
    og_image: post.ogImage,
    read_time: post.readTime,
    views: post.views,
    meta_description: post.metaDescription,
    source: post.source,
    published_at: post.publishedAt,
    publish_at: post.publishAt,
    created_at: post.createdAt,
    updated_at: post.updatedAt,
  };
}

/** Every column but `content`: what the lists read (an article can be tens of kilobytes; a list shows none). */
const SUMMARY_COLUMNS = [
  'id',
  'slug',
  'title',
  'excerpt',
  'keywords',
  'author',
  'category',
  'category_slug',
  'status',
  'featured_image',
  'og_image',
  'read_time',
  'views',
  'meta_description',
  'source',
  'published_at',
  'publish_at',
  'created_at',
  'updated_at',
] as const satisfies ReadonlyArray<Exclude<keyof BlogPostRow, 'content'>>;

function toStoredPost(row: BlogPostRow): StoredPost {
  return { ...toStoredSummary(row), content: row.content };
}

function toStoredSummary(row: Omit<BlogPostRow, 'content'>): StoredPostSummary {
  let keywords: string[] = [];
  try {
    const parsed: unknown = JSON.parse(row.keywords);
    if (Array.isArray(parsed)) keywords = parsed.filter((k): k is string => typeof k === 'string');
  } catch {
    keywords = [];
  }
  return {
    id: row.id,
    slug: row.slug,
    title: row.title,
    excerpt: row.excerpt,
    keywords,
    author: row.author,
    category: row.category,
    categorySlug: row.category_slug,
    status: row.status as PostStatus,
    featuredImage: row.featured_image,
    ogImage: row.og_image,
    readTime: Number(row.read_time),
    views: Number(row.views),
    metaDescription: row.meta_description,
    source: row.source as PostSource,
    publishedAt: row.published_at,
    publishAt: row.publish_at ?? null,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

function toStoredRevision(row: BlogPostRevisionRow): StoredRevision {
  const parse = (text: string, fallback: unknown) => {
    try {
      return JSON.parse(text) as unknown;
    } catch {
      return fallback;
    }
  };
  const fields = parse(row.changed_fields, []);
  const snapshot = parse(row.snapshot, {});
  return {
    id: row.id,
    postId: row.post_id,
    number: Number(row.number),
    createdAt: row.created_at,
    action: row.action,
    authorKind: row.author_kind,
    authorLabel: row.author_label,
    changedFields: Array.isArray(fields) ? fields.filter((f): f is string => typeof f === 'string') : [],
    restoredFrom: row.restored_from === null ? null : Number(row.restored_from),
    snapshot: typeof snapshot === 'object' && snapshot !== null ? (snapshot as Record<string, unknown>) : {},
  };
}

export interface StoredDelivery {
  bodyHash: string;
  result: string;
  createdAt: string;
}

/** The webhook's replay memory: one row per key (signature, Idempotency-Key); each call is one statement. */
export interface WebhookDeliveriesRepository {
  /** The stored deliveries among `keys`, by key. */
  find(keys: readonly string[]): Promise<Map<string, StoredDelivery>>;
  /**
   * Claims the keys not taken yet, with an empty result: answers the keys this call claimed (those missing were
   * taken first, by a concurrent retry on this instance or another; the unique key decides).
   */
  claim(keys: readonly string[], delivery: { bodyHash: string; createdAt: string }): Promise<string[]>;
  /** Stores the answer of deliveries claimed with an empty result. */
  complete(keys: readonly string[], result: string): Promise<void>;
  /** Forgets keys (claims whose delivery failed, so a corrected retry may use them). */
  release(keys: readonly string[]): Promise<void>;
  /** Forgets deliveries older than `before` (ISO time). */
  prune(before: string): Promise<void>;
}

export function createWebhookDeliveriesRepository(db: Kysely<Database>): WebhookDeliveriesRepository {
  return {
    async find(keys) {
      const found = new Map<string, StoredDelivery>();
      if (keys.length === 0) return found;
      const rows = await db.selectFrom('webhook_deliveries').select(['key', 'body_hash', 'result', 'created_at']).where('key', 'in', keys).execute();
      for (const row of rows) found.set(row.key, { bodyHash: row.body_hash, result: row.result, createdAt: row.created_at });
      return found;
    },
    async claim(keys, d) {
      if (keys.length === 0) return [];
      const rows = await db
        .insertInto('webhook_deliveries')
        .values(keys.map((key) => ({ key, body_hash: d.bodyHash, result: '', created_at: d.createdAt })))
        .onConflict((oc) => oc.column('key').doNothing())
        .returning('key')
        .execute();
      return rows.map((r) => r.key);
    },
    async complete(keys, result) {
      if (keys.length === 0) return;
      await db.updateTable('webhook_deliveries').set({ result }).where('key', 'in', keys).execute();
    },
    async release(keys) {
      if (keys.length === 0) return;
      await db.deleteFrom('webhook_deliveries').where('key', 'in', keys).execute();
    },
    async prune(before) {
      await db.deleteFrom('webhook_deliveries').where('created_at', '<', before).execute();
    },
  };
}
