import { PostgresAdapter, sql, type Kysely, type RawBuilder, type SelectQueryBuilder } from 'kysely';
import { searchWords } from '@site/contracts/search-rules';
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

/** PostgreSQL `to_tsquery` text: each word quoted, ANDed, the last one a prefix. */
export function tsQuery(words: readonly string[]): string {
  return words.map((word, i) => `'${word.replace(/'/g, "''")}'${i === words.length - 1 ? ':*' : ''}`).join(' & ');
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
 * when fewer than 1,000 newer ones match; the count (`countMatches`, or the filter's count) still counts every match.
 */
export const SEARCH_RANK_LIMIT = 1_000;

export interface TextSearch<T extends SearchedTable> {
  /**
   * `select … from` the table, keeping only the rows that match: served by the full-text index. For lists in the
   * table's own order and counts (SQLite: `rowid in (the FTS matches)`, the set read once, so a list walks its own
   * index newest first and stops at its page).
   */
  from: SearchedSelect<T>;
  /** The same rows, with what `rank` and `newest` read (SQLite: the FTS matches with their bm25, newest first). */
  ranked?: SearchedSelect<T>;
  /** Relevance of a row of `ranked`, smaller is better (order ascending). */
  rank?: RawBuilder<number>;
  /**
   * Newest first among the rows of `ranked`, in the order the index gives them cheaply: SQLite, the FTS rowid (the
   * order rows were stored in); PostgreSQL, `created_at`. Order by it descending, limit SEARCH_RANK_LIMIT.
   */
  newest?: RawBuilder<unknown>;
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
export function textSearch<T extends SearchedTable>(db: Kysely<Database>, table: T, words: readonly string[]): Required<TextSearch<T>> {
  const name = sql.raw(table);
  if (isPostgres(db)) {
    const query = sql`to_tsquery('simple'::regconfig, ${tsQuery(words)})`;
    return {
      from: (db.selectFrom(table) as unknown as SearchedSelect<T>).where(sql<boolean>`${name}.search_vector @@ ${query}`),
      ranked: (db.selectFrom(table) as unknown as SearchedSelect<T>).where(sql<boolean>`${name}.search_vector @@ ${query}`),
      rank: sql<number>`-ts_rank(${name}.search_vector, ${query})`,
      newest: sql`${name}.created_at`,
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
  };
}

/**
 * How many rows of `table` match `q`, from the full-text index alone (no row of the table is read: SQLite counts the
 * FTS table's matches; PostgreSQL the GIN index's, with their heap check). For a search without a filter on other columns.
 */
export async function countMatches(db: Kysely<Database>, table: SearchedTable, q: string): Promise<number> {
  const words = searchWords(q);
  if (words.length === 0) return 0;
  const name = sql.raw(table);
  const { rows } = isPostgres(db)
    ? await sql<{ n: number | string | bigint }>`select count(*) as n from ${name} where search_vector @@ to_tsquery('simple'::regconfig, ${tsQuery(words)})`.execute(db)
    : await sql<{ n: number | string | bigint }>`select count(*) as n from ${sql.raw(`${table}_fts`)} where ${sql.raw(`${table}_fts`)} match ${ftsMatch(words)}`.execute(db);
  return Number(rows[0]?.n ?? 0);
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
