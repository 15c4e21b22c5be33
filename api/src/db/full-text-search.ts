import { PostgresAdapter, sql, type Kysely, type RawBuilder, type SelectQueryBuilder } from 'kysely';
import { SEARCH_COUNT_LIMIT, searchWords } from '@site/contracts/search-rules';
import type { Database } from './schema';

/*
 * Search against the full-text index (migrations/0017-search.ts: FTS5 on SQLite, GIN on PostgreSQL) with one rule on
 * both: every word must be in the row, the last may be a prefix, case-insensitive. Words are runs of letters and
 * digits, so search text is never query syntax.
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

/** PostgreSQL: the most whole words a search's last word (a prefix) is expanded to; past it the prefix is used. */
export const PG_PREFIX_WORDS = 64;

/**
 * PostgreSQL: the same rows as `to_tsquery(tsQuery(words))`, with the last word expanded to the whole words it starts
 * (`search_lexemes`, migration 0032), ORed: GIN reads a prefix's entries whole into a bitmap but combines whole words as
 * it reads, skipping what cannot match. Falls back to the prefix when it starts too many words, none, or the database
 * would read the word differently; ranking always uses the prefix, so the rank does not depend on the path taken.
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
 * PostgreSQL: transaction-local settings that leave walking the list's own index newest first as the only plan, for
 * a common search text; the planner's fixed guess for a prefix otherwise picks a bitmap of every match. JIT is off
 * because a plan with sorting disabled is costed far past its threshold.
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
 * A ranked search ranks and counts only the newest SEARCH_RANK_LIMIT matches (past it `total` is a lower bound), so
 * its cost does not grow with the number of matches: ranking every match was what grew. FTS5's bm25 still reads each
 * word's whole index list to weigh it; SQLite offers no other ranking.
 */
export const SEARCH_RANK_LIMIT = SEARCH_COUNT_LIMIT;

/** The most matching rows a search reads to find its window, whatever the filter; past it a count is a lower bound. */
export const SEARCH_SCAN_LIMIT = 20 * SEARCH_RANK_LIMIT;

export interface TextSearch<T extends SearchedTable> {
  /** The table's matching rows, for lists in the table's own order and for counts (the list's index still drives the walk). */
  from: SearchedSelect<T>;
  /** The same rows with what `rank` and `newest` read (posts on PostgreSQL: their narrow search rows, migration 0031). */
  ranked?: SearchedSelect<T>;
  /** Relevance of a row of `ranked`, smaller is better (order ascending). */
  rank?: RawBuilder<number>;
  /** Newest first among `ranked`, in an order the index gives cheaply; order by it descending, limit SEARCH_RANK_LIMIT. */
  newest?: RawBuilder<unknown>;
  /** SQLite: keeps `ranked` to the newest SEARCH_SCAN_LIMIT matches, so a filter that keeps few of them stops there. */
  scanFloor?: RawBuilder<boolean>;
}

/**
 * The rows of `table` matching `words` (at least one) and their rank. On SQLite the FTS matches are joined to the
 * table by `cross join`, which SQLite never reorders, so the MATCH runs once instead of once per row; `from` uses
 * `rowid in (…)`, read once into a set, so a list still walks its own index and stops at its page.
 */
export function textSearch<T extends SearchedTable>(db: Kysely<Database>, table: T, words: readonly string[]): Required<Omit<TextSearch<T>, 'scanFloor'>> & Pick<TextSearch<T>, 'scanFloor'> {
  const name = sql.raw(table);
  if (isPostgres(db)) {
    const query = sql`to_tsquery('simple'::regconfig, ${tsQuery(words)})`;
    // The planner guesses the expanded words rare and picks a bitmap, right for a rare text; the repositories switch
    // a text common among the newest rows to PG_WALK_SETTINGS.
    const matchQuery = pgMatchQuery(words);
    return {
      from: (db.selectFrom(table) as unknown as SearchedSelect<T>).where(sql<boolean>`${name}.search_vector @@ ${matchQuery}`),
      // Posts rank from their narrow search rows (migration 0031), so ranking does not read each post's article.
      ranked: (db.selectFrom(table === 'blog_posts' ? 'blog_post_search as blog_posts' : table) as unknown as SearchedSelect<T>).where(sql<boolean>`${name}.search_vector @@ ${matchQuery}`),
      rank: sql<number>`-ts_rank(${name}.search_vector, ${query})`,
      // Posts: the list's own order (newest published first), which its indexes walk.
      newest: table === 'blog_posts' ? sql`coalesce(blog_posts.published_at, blog_posts.created_at)` : sql`${name}.created_at`,
    };
  }
  const fts = sql.raw(`${table}_fts`);
  const weights = sql.raw(SEARCHED[table].map(([, weight]) => FTS_WEIGHT[weight]).join(', '));
  // FTS5 walks its matches newest first, so a `limit` stops the scan (and bm25) early instead of sorting every match.
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
 * The window a ranked search ranks: the newest SEARCH_RANK_LIMIT + 1 matching rows (the last only counted). GIN gives
 * matches in no order, so PostgreSQL reads at most SEARCH_SCAN_LIMIT of them and keeps the newest: bounded, and exact
 * whenever fewer match.
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
 * The best `limit` ids among a window's newest SEARCH_RANK_LIMIT (ties by `ties`, an ORDER BY list over its columns),
 * and how many rows it has (SEARCH_RANK_LIMIT + 1 when more match than it ranks).
 */
export async function bestOfWindow(db: Kysely<Database>, window: RankedRows, ties: RawBuilder<unknown>, limit: number): Promise<{ ids: string[]; matches: number }> {
  const { rows } = await bestOfWindowQuery(window, ties, limit).execute(db);
  return { ids: rows.map((r) => r.id), matches: Number(rows[0]?.matches ?? 0) };
}

/** `bestOfWindow`'s query (its plan is tested). */
export function bestOfWindowQuery(window: RankedRows, ties: RawBuilder<unknown>, limit: number) {
  // One window function per level: with both at one level SQLite sorted every FTS match instead of reading them in order.
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
 * PostgreSQL: the same page and count as `bestOfWindow` over `newestWindow` when at most SEARCH_RANK_LIMIT rows match,
 * without numbering rows by age (then the window is every match); undefined when more match, and on SQLite.
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
 * SQLite, a ranked search without a filter: the same page and count as `bestOfWindow` over `newestWindow`, ranked in
 * the FTS index alone; only rows ranked at least as well as the `limit`-th are read from the table to break ties,
 * since joining the whole window to the table was most of the cost. `ties` orders rows of the table, named `t`.
 * Undefined on PostgreSQL and for text without a word.
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
  // `materialized`: each step is read twice but runs once; with a limit, FTS5 walks its matches newest first and stops.
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
 * SQLite: whether `q` has SEARCH_SCAN_LIMIT matches or more, in which case a filtered search's count is a lower bound.
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
