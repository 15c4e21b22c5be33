import { PostgresAdapter, sql, type Kysely, type RawBuilder, type SelectQueryBuilder } from 'kysely';
import { SEARCH_COUNT_LIMIT, searchWords } from '@site/contracts/search-rules';
import type { Database } from './schema';

/*
 * Search text against the database's full-text index (migrations/0017-search.ts): SQLite FTS5 tables `<table>_fts`,
 * PostgreSQL GIN indexes on the stored `search_vector` column. The same rules on both: every word of the search must
 * be in the row (in any of the searched columns), the last word may be the start of a word ("autom" finds
 * "automation"), case-insensitive. Words are runs of letters and digits; everything else separates them, in the rows as in the search
 * text, so `jane@example.com` is found by "jane", "example.com" or the whole address, and the search text is never
 * query syntax (`"`, `*`, `OR`, `NEAR(`, `-`, `:` are separators or plain words).
 */

/** The searched columns and their weights (A best), as the migration indexes them. */
export const SEARCHED = {
  blog_posts: [
    ['title', 'A'],
    ['excerpt', 'B'],
    ['category', 'C'],
  ],
  contact_messages: [
    ['name', 'A'],
    ['email', 'A'],
    ['company', 'B'],
    ['subject', 'B'],
    ['message', 'C'],
  ],
} as const satisfies Record<string, ReadonlyArray<readonly [string, 'A' | 'B' | 'C' | 'D']>>;

export type SearchedTable = keyof typeof SEARCHED;

/** FTS5 `MATCH` text: each word a quoted string (implicitly ANDed), the last one a prefix. */
export function ftsMatch(words: readonly string[]): string {
  return words.map((word, i) => `"${word.replace(/"/g, '""')}"${i === words.length - 1 ? '*' : ''}`).join(' ');
}

/** PostgreSQL `to_tsquery` text: each word quoted, ANDed, the last one a prefix (unless `prefix` is false). */
export function tsQuery(words: readonly string[], prefix = true): string {
  return words.map((word, i) => `'${word.replace(/'/g, "''")}'${prefix && i === words.length - 1 ? ':*' : ''}`).join(' & ');
}

/**
 * PostgreSQL: the most whole words a search's last word (a prefix) is looked up as (`pgMatchQuery`); a prefix that
 * starts more is looked up as a prefix.
 */
export const PG_PREFIX_WORDS = 64;

/**
 * PostgreSQL: the query a search's matches are found by in the GIN index, the same rows as `to_tsquery` of
 * `tsQuery(words)`: the last word, a prefix, as the whole words of the index it starts (migration 0032's
 * `search_lexemes`, one range of its key), ORed. The GIN index reads a prefix's entries whole into a bitmap before it
 * combines them; whole words it combines as it reads, skipping what cannot match ("danville bakery" at 100,000
 * messages: 15.6 ms for the ranked query with the prefix, 10.0 ms with its word). Past PG_PREFIX_WORDS words, when
 * none starts with it, or when the database would read the word otherwise than `searchWords` did (its lowercase, its
 * parser), the prefix itself. Ranking keeps `to_tsquery` of the prefix: the same rank whatever way a match is found.
 * One lookup of a few index pages, run once per query (an InitPlan).
 */
export function pgMatchQuery(words: readonly string[]): RawBuilder<unknown> {
  const last = words[words.length - 1]!;
  const prefix = sql`to_tsquery('simple'::regconfig, ${tsQuery([last])})`;
  // `like` with a constant pattern: the planner reads it as a range of the "C" key. Words hold letters and digits
  // only, but `\`, `%` and `_` are escaped all the same.
  const pattern = `${last.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  // Each word quoted as a tsquery lexeme (`'` doubled, `\` escaped) and cast, not parsed again by a configuration.
  const expanded = sql`coalesce((
    select string_agg('''' || replace(replace(l.word, '\\', '\\\\'), '''', '''''') || '''', ' | ')::tsquery
    from (select word from search_lexemes where word like ${pattern} order by word limit ${sql.lit(PG_PREFIX_WORDS + 1)}) l
    having count(*) between 1 and ${sql.lit(PG_PREFIX_WORDS)}
      and array[${last}]::text[] = tsvector_to_array(to_tsvector('simple'::regconfig, ${last}))
  ), ${prefix})`;
  if (words.length === 1) return expanded;
  return sql`(to_tsquery('simple'::regconfig, ${tsQuery(words.slice(0, -1), false)}) && ${expanded})`;
}

/**
 * PostgreSQL: the settings, for its transaction only, under which a walk of a list's own index is the plan (a common
 * search text read newest first, stopping at what it needs): no sequential or bitmap scan and no sort left to choose.
 * The planner guesses a prefix (a search's last word) matches 2% of the rows whatever it starts, and chose a bitmap of
 * every match. A plan with a sort disabled costs far past the JIT's threshold (compiling it took ~170 ms): no JIT.
 */
export const PG_WALK_SETTINGS = sql`select set_config('enable_seqscan', 'off', true), set_config('enable_bitmapscan', 'off', true), set_config('enable_sort', 'off', true), set_config('jit', 'off', true)`;

/** PostgreSQL: `read` in a transaction of its own under PG_WALK_SETTINGS (they end with it). */
export function underWalkSettings<T>(db: Kysely<Database>, read: (trx: Kysely<Database>) => Promise<T>): Promise<T> {
  return db.transaction().execute(async (trx) => {
    await PG_WALK_SETTINGS.execute(trx);
    return read(trx);
  });
}

/** bm25 weights per column in PostgreSQL's default proportions (A 1, B 0.4, C 0.2). */
const FTS_WEIGHT = { A: '1.0', B: '0.4', C: '0.2', D: '0.1' } as const;

export function isPostgres(db: Kysely<Database>): boolean {
  return db.getExecutor().adapter instanceof PostgresAdapter;
}

/** A select from one searched table, the search already in it (its rows are the table's, by the table's name). */
export type SearchedSelect<T extends SearchedTable> = SelectQueryBuilder<Database, T, object>;

/**
 * A ranked search ranks the newest SEARCH_RANK_LIMIT matches only (after the list's filter), so its cost stays that
 * of 1,000 matches however many the index finds: bm25 / ts_rank of every match was the cost that grew (100,000
 * messages, "pleasanton": 239 ms for every match, 4.4 ms for the newest 1,000 on SQLite). An older match ranks only
 * when fewer than 1,000 newer ones match. The count is bounded the same way: a search's `total` counts its matches up
 * to SEARCH_RANK_LIMIT (the window's own rows, one more to know whether more match) and says "at least" past it
 * (`totalIsLowerBound`), as the count of every match grew with them (PostgreSQL: 13,045 heap rows for "pleasanton"
 * at 100,000 messages). One part still grows with the table, on SQLite: bm25 weighs each word by the number of rows
 * that hold it, and FTS5 counts them for every query by reading the word's whole index list (`xQueryPhrase` in
 * fts5_aux.c), whatever the window: the newest 1,001 matches of "s" at 100,000 messages took 2.3 ms with bm25 and
 * 0.07 ms as rowids, the newest 201 still 1.9 ms. FTS5 gives SQL no other ranking.
 */
export const SEARCH_RANK_LIMIT = SEARCH_COUNT_LIMIT;

/**
 * The most rows a search reads to find its window, whatever the filter: SQLite, the newest 20,000 matches of the text
 * (the FTS index, newest first; a filter that keeps few of them ranks and counts those); PostgreSQL, 20,000 rows of
 * its fallback's GIN matches (see `newestWindow`). Past it a count is a lower bound.
 */
export const SEARCH_SCAN_LIMIT = 20 * SEARCH_RANK_LIMIT;

export interface TextSearch<T extends SearchedTable> {
  /**
   * `select … from` the table, keeping only the rows that match: served by the full-text index. For lists in the
   * table's own order and counts (SQLite: `rowid in (the FTS matches)`, the set read once, so a list walks its own
   * index newest first and stops at its page).
   */
  from: SearchedSelect<T>;
  /**
   * The same rows, with what `rank` and `newest` read (SQLite: the FTS matches with their bm25, newest first;
   * PostgreSQL posts: their narrow search rows, `blog_post_search` named `blog_posts`, migration 0031).
   */
  ranked?: SearchedSelect<T>;
  /** Relevance of a row of `ranked`, smaller is better (order ascending). */
  rank?: RawBuilder<number>;
  /**
   * Newest first among the rows of `ranked`, in the order the index gives them cheaply: SQLite, the FTS rowid (the
   * order rows were stored in); PostgreSQL, `created_at` of a message and a post's place in the list (published, else
   * created). Order by it descending, limit SEARCH_RANK_LIMIT.
   */
  newest?: RawBuilder<unknown>;
  /**
   * SQLite: keeps the rows of `ranked` among the newest SEARCH_SCAN_LIMIT matches of the text only (a rowid floor,
   * found once in the FTS index), so a filter that keeps few matches stops there; PostgreSQL's cap is `newestWindow`'s.
   */
  scanFloor?: RawBuilder<boolean>;
}

/**
 * The rows of `table` matching `words` (at least one) and their rank. PostgreSQL: `search_vector @@ query` (the GIN
 * index) and `ts_rank` of the stored vector. SQLite: the FTS table's matches with their bm25 (computed in the same
 * scan), then each match's row by rowid: `cross join`, which SQLite never reorders, so the FTS scan runs once. (A
 * plain join let the planner walk the posts newest first and run the MATCH again for each: 72-187 ms for a page of
 * 1,200 posts; a bm25 per row in a correlated subquery, likewise: 826 ms for 10,000 messages.) Lists in their own
 * order read `from`: `rowid in (…)` of the FTS matches, which SQLite reads once into a set (no bm25), then the list's
 * index newest first, stopping at its page ("scheduling" at 100x, 12,000 posts: 0.3 ms for the newest 13 published,
 * 9.6 ms by the join that sorted every match).
 */
export function textSearch<T extends SearchedTable>(db: Kysely<Database>, table: T, words: readonly string[]): Required<Omit<TextSearch<T>, 'scanFloor'>> & Pick<TextSearch<T>, 'scanFloor'> {
  const name = sql.raw(table);
  if (isPostgres(db)) {
    const query = sql`to_tsquery('simple'::regconfig, ${tsQuery(words)})`;
    // Matches are found by the prefix's whole words (the GIN index combines them as it reads), ranked by the prefix.
    // Known only when the query runs, the words are guessed rare by the planner: a bitmap of the matches, which is
    // right for a rare text. A text common among the newest rows is walked in the list's own index instead, under
    // PG_WALK_SETTINGS (the repositories look at the newest rows first and decide).
    const matchQuery = pgMatchQuery(words);
    return {
      from: (db.selectFrom(table) as unknown as SearchedSelect<T>).where(sql<boolean>`${name}.search_vector @@ ${matchQuery}`),
      // Posts rank from their narrow search rows (migration 0031), named as the table: the same columns the ranking
      // and the filters read, without a page of article per post.
      ranked: (db.selectFrom(table === 'blog_posts' ? 'blog_post_search as blog_posts' : table) as unknown as SearchedSelect<T>).where(sql<boolean>`${name}.search_vector @@ ${matchQuery}`),
      rank: sql<number>`-ts_rank(${name}.search_vector, ${query})`,
      // Posts: the list's own order (newest published first), which its indexes walk (posts-repository's newestPostsPg).
      newest: table === 'blog_posts' ? sql`coalesce(blog_posts.published_at, blog_posts.created_at)` : sql`${name}.created_at`,
    };
  }
  const fts = sql.raw(`${table}_fts`);
  const weights = sql.raw(SEARCHED[table].map(([, weight]) => FTS_WEIGHT[weight]).join(', '));
  // `order by rowid desc`: FTS5 walks its matches newest first, so a `limit` on the newest stops the scan (and bm25)
  // early instead of sorting every match.
  const matches = sql<{ fts_rowid: number; fts_rank: number }>`(select rowid as fts_rowid, bm25(${fts}, ${weights}) as fts_rank from ${fts} where ${fts} match ${ftsMatch(words)} order by rowid desc)`;
  const joined = db.selectFrom(matches.as('fts_match')).crossJoin(table as SearchedTable) as unknown as SearchedSelect<T>;
  return {
    from: (db.selectFrom(table) as unknown as SearchedSelect<T>).where(sql<boolean>`${name}.rowid in (select rowid from ${fts} where ${fts} match ${ftsMatch(words)})`),
    ranked: joined.where(sql<boolean>`${name}.rowid = fts_match.fts_rowid`),
    rank: sql<number>`fts_match.fts_rank`,
    newest: sql`fts_match.fts_rowid`,
    // An uncorrelated subquery, run once; a condition on the FTS rowid, which FTS5 takes as a range of its scan.
    scanFloor: sql<boolean>`fts_match.fts_rowid >= coalesce((select rowid from ${fts} where ${fts} match ${ftsMatch(words)} order by rowid desc limit 1 offset ${sql.lit(SEARCH_SCAN_LIMIT - 1)}), 0)`,
  };
}

/** A count that stops: `total` rows counted up to a cap, and whether more lie past it. */
export interface BoundedCount {
  total: number;
  /** More rows match than `total` says (it counted up to its cap). */
  totalIsLowerBound: boolean;
}

/**
 * How many rows `query` answers, counting SEARCH_RANK_LIMIT + 1 at most (a `limit` inside the count: the database
 * stops reading there): the public list's count of its search's matches, whatever their number.
 */
export async function countUpTo<TB extends keyof Database, O>(db: Kysely<Database>, query: SelectQueryBuilder<Database, TB, O>, cap = SEARCH_RANK_LIMIT): Promise<BoundedCount> {
  const row = await db
    .selectFrom(query.clearSelect().select(sql<number>`1`.as('one')).limit(cap + 1).as('counted'))
    .select((eb) => eb.fn.countAll<number | string | bigint>().as('n'))
    .executeTakeFirstOrThrow();
  const n = Number(row.n);
  return { total: Math.min(n, cap), totalIsLowerBound: n > cap };
}

/**
 * A ranked window's rows: `id`, `search_rank` (smaller is better), `newest_key` (larger is newer) and the columns the
 * page breaks ties by.
 */
export type RankedRows = SelectQueryBuilder<Database, keyof Database, { id: string; search_rank: number; newest_key: unknown }>;

/**
 * The window a ranked search ranks, from the rows matching (with their rank and their newest key): the newest
 * SEARCH_RANK_LIMIT + 1 (the last only counted, never ranked). SQLite reads its FTS matches newest first already (at
 * most SEARCH_SCAN_LIMIT, textSearch); PostgreSQL's GIN index gives them in no order, so at most SEARCH_SCAN_LIMIT of
 * them are read (a bitmap heap scan stops at a `limit`; in the table's order, which is the order rows were stored
 * in), then the newest kept: bounded, and the same as the newest of every match whenever fewer match (the leads'
 * search reads the newest messages first, leads-repository.ts, and comes here for a text rare among them).
 */
export function newestWindow(db: Kysely<Database>, matching: RankedRows, newest: RawBuilder<unknown>): RankedRows {
  // SQLite: ordered by the FTS rowid itself (not its alias), which the FTS scan gives: no sort, it stops at the limit.
  if (!isPostgres(db)) return matching.orderBy(newest, 'desc').limit(SEARCH_RANK_LIMIT + 1);
  return db
    .selectFrom(matching.limit(SEARCH_SCAN_LIMIT).as('scanned'))
    .selectAll()
    .orderBy(sql`newest_key`, 'desc')
    .limit(SEARCH_RANK_LIMIT + 1) as unknown as RankedRows;
}

/**
 * The best `limit` ids of a window (`newestWindow`, or the leads' newest-messages window on PostgreSQL): best rank
 * first, ties by `ties` (an ORDER BY list over the window's columns), among its newest SEARCH_RANK_LIMIT; and how many
 * rows it has (SEARCH_RANK_LIMIT + 1 when more match than it ranks). One query over at most 1,001 narrow rows.
 */
export async function bestOfWindow(db: Kysely<Database>, window: RankedRows, ties: RawBuilder<unknown>, limit: number): Promise<{ ids: string[]; matches: number }> {
  const { rows } = await bestOfWindowQuery(window, ties, limit).execute(db);
  return { ids: rows.map((r) => r.id), matches: Number(rows[0]?.matches ?? 0) };
}

/** `bestOfWindow`'s query (its plan is tested). */
export function bestOfWindowQuery(window: RankedRows, ties: RawBuilder<unknown>, limit: number) {
  // One window function per level: with both over the window itself, SQLite no longer read the FTS matches in the
  // order they are stored in but sorted all of them (13,045 for "pleasanton" at 100x: 55-90 ms instead of 9).
  return sql<{ id: string; matches: number | string | bigint }>`
    select id, matches from (
      select numbered.*, count(*) over () as matches from (
        select w.*, row_number() over (order by w.newest_key desc) as nth from ${window.as('w')}
      ) numbered
    ) counted
    where nth <= ${sql.lit(SEARCH_RANK_LIMIT)}
    order by search_rank, ${ties}
    limit ${sql.lit(Math.max(1, Math.floor(limit)))}`;
}

/**
 * PostgreSQL: the same page and count as `bestOfWindow` over `newestWindow` when at most SEARCH_RANK_LIMIT rows
 * match (then the window is every match: no order by age to find, no row to number); undefined when more match, then
 * `bestOfWindow` finds the newest. One query over at most SEARCH_RANK_LIMIT + 1 rows of the GIN index's matches, the
 * page and the count from the same rows ("scheduling" at 100x data, 1,000 of 12,000 posts: 3.0 ms of the database's
 * CPU, 3.8 ms through the window; api/bench/data-scale.mjs). Undefined on SQLite (its window comes from the FTS
 * index newest first already).
 */
export async function bestOfFew(db: Kysely<Database>, matching: RankedRows, ties: RawBuilder<unknown>, limit: number): Promise<{ ids: string[]; matches: number } | undefined> {
  if (!isPostgres(db)) return undefined;
  const { rows } = await sql<{ id: string; matches: number | string | bigint }>`
    select id, count(*) over () as matches from ${matching.limit(SEARCH_RANK_LIMIT + 1).as('w')}
    order by search_rank, ${ties}
    limit ${sql.lit(Math.max(1, Math.floor(limit)))}`.execute(db);
  const matches = Number(rows[0]?.matches ?? 0);
  return matches > SEARCH_RANK_LIMIT ? undefined : { ids: rows.map((r) => r.id), matches };
}

/**
 * SQLite, a ranked search without a filter: the same page and count as `bestOfWindow` over `newestWindow`, with the
 * window ranked in the FTS index alone and the table read for the page's candidates only. Undefined on PostgreSQL
 * and for text without a word. `ties` orders rows of the table, named `t`, after the rank (`t.created_at desc, t.id`).
 *
 * The window is the newest SEARCH_RANK_LIMIT + 1 matches of the text, each with its bm25, read from the FTS index
 * newest first (no row of the table); the page's candidates are the rows of the newest SEARCH_RANK_LIMIT whose rank
 * is at least as good as the `limit`-th best rank (the page, and any row tied with its last rank), and only those are
 * read from the table to break ties. Joining every row of the window to the table to read what breaks ties was most
 * of the cost (a blog post is a page of SQLite's file with its article: "scheduling" at 100x data, 12,000 posts and
 * its 1,000 matches, 7.8 ms of CPU for the window joined, 2.7 ms ranked in the index; api/bench/data-scale.mjs).
 */
export async function bestInIndex(db: Kysely<Database>, table: SearchedTable, q: string, ties: RawBuilder<unknown>, limit: number): Promise<{ ids: string[]; matches: number } | undefined> {
  const words = searchWords(q);
  if (words.length === 0 || isPostgres(db)) return undefined;
  const { rows } = await bestInIndexQuery(table, words, ties, limit).execute(db);
  return { ids: rows.map((r) => r.id), matches: Number(rows[0]?.matches ?? 0) };
}

/** `bestInIndex`'s query (its plan is tested). */
export function bestInIndexQuery(table: SearchedTable, words: readonly string[], ties: RawBuilder<unknown>, limit: number) {
  const fts = sql.raw(`${table}_fts`);
  const weights = sql.raw(SEARCHED[table].map(([, weight]) => FTS_WEIGHT[weight]).join(', '));
  const n = Math.max(1, Math.floor(limit));
  // `materialized`: each step runs once (the window is read by the count and by the ranked rows, the ranked rows by
  // the cut-off and by the page). `order by rowid desc` with a limit: FTS5 walks its matches newest first and stops.
  return sql<{ id: string; matches: number | string | bigint }>`
    with window_rows as materialized (
      select rowid as fts_rowid, bm25(${fts}, ${weights}) as search_rank from ${fts}
      where ${fts} match ${ftsMatch(words)} order by rowid desc limit ${sql.lit(SEARCH_RANK_LIMIT + 1)}
    ),
    ranked as materialized (
      select fts_rowid, search_rank from window_rows order by fts_rowid desc limit ${sql.lit(SEARCH_RANK_LIMIT)}
    ),
    cut_off as (select search_rank from ranked order by search_rank limit 1 offset ${sql.lit(n - 1)})
    select t.id as id, (select count(*) from window_rows) as matches
    from ranked cross join ${sql.raw(table)} as t
    where t.rowid = ranked.fts_rowid
      and ((select search_rank from cut_off) is null or ranked.search_rank <= (select search_rank from cut_off))
    order by ranked.search_rank, ${ties}
    limit ${sql.lit(n)}`;
}

/**
 * Whether the text `q` has SEARCH_SCAN_LIMIT matches or more in `table` (SQLite: counted in the FTS index alone, up to
 * there): then a filtered search that found fewer than SEARCH_RANK_LIMIT did not see every match, and its count is a
 * lower bound.
 */
export async function scanWasFull(db: Kysely<Database>, table: SearchedTable, q: string): Promise<boolean> {
  const words = searchWords(q);
  if (words.length === 0 || isPostgres(db)) return false;
  const fts = sql.raw(`${table}_fts`);
  const { rows } = await sql<{ n: number | string | bigint }>`select count(*) as n from (select rowid from ${fts} where ${fts} match ${ftsMatch(words)} limit ${sql.lit(SEARCH_SCAN_LIMIT)})`.execute(db);
  return Number(rows[0]?.n ?? 0) >= SEARCH_SCAN_LIMIT;
}

/** Rows read by id (`read`), in the order of `ids` (a ranked page): the sort held ids only, never a row's text. */
export async function inOrderOf<R extends { id: string }>(ids: readonly string[], read: (ids: string[]) => Promise<R[]>): Promise<R[]> {
  if (ids.length === 0) return [];
  const byId = new Map((await read([...ids])).map((r) => [r.id, r]));
  return ids.flatMap((id) => byId.get(id) ?? []);
}

/**
 * `select … from` a list's table with its `q`: the table itself without search text; for text without a word (only
 * punctuation) no row and no rank; else `textSearch`.
 */
export function searchFor<T extends SearchedTable>(db: Kysely<Database>, table: T, q: string | undefined): TextSearch<T> {
  const all = db.selectFrom(table) as unknown as SearchedSelect<T>;
  if (!q?.trim()) return { from: all };
  const words = searchWords(q);
  if (words.length > 0) return textSearch(db, table, words);
  const none = all.where(sql<boolean>`1 = 0`);
  return { from: none, ranked: none };
}
