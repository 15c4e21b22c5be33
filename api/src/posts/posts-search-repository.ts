import { sql, type Kysely } from 'kysely';
import { searchWords } from '@site/contracts/search-rules';
import type { Database } from '../db/schema';
import { underWalkSettings, bestInIndex, bestOfFew, bestOfWindow, countUpTo, inOrderOf, isPostgres, newestWindow, scanWasFull, searchFor, SEARCH_RANK_LIMIT, SEARCH_SCAN_LIMIT, tsQuery, type BoundedCount, type RankedRows } from '../db/full-text-search';
import type { PostFilter, StoredPostSummary } from './posts-repository';
import { SORTED_AT, SUMMARY_COLUMNS, toStoredSummary, type CountValue } from './posts-rows-repository';

/** PostgreSQL: how many of the filter's newest posts tell whether a common text is cheaper walked than looked up (newestPostsPg). */
export const PG_POSTS_PROBE = 300;

/** The search's parts the reads share: the filter, the list's order, the count and the walk's choice. */
export type PostsSearch = ReturnType<typeof createPostsSearch>;

/** The posts' one search: which posts match a filter, how many, and the admin's ranked page (`ranked`). */
export function createPostsSearch(db: Kysely<Database>) {
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

  /** PostsRepository.ranked: the best `limit` matches among the newest SEARCH_RANK_LIMIT of the filter. */
  async function ranked(filter: PostFilter, limit: number): Promise<{ posts: StoredPostSummary[] } & BoundedCount> {
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
  }

  return { filtered, newestFirst, walkIsCheaperPg, count, ranked };
}
