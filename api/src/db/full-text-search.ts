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

export interface TextSearch<T extends SearchedTable> {
  /** `select … from` the table, keeping only the rows that match: served by the full-text index. */
  from: SearchedSelect<T>;
  /** Relevance of a row of `from`, smaller is better (order ascending). */
  rank?: RawBuilder<number>;
}

/**
 * The rows of `table` matching `words` (at least one) and their rank. PostgreSQL: `search_vector @@ query` (the GIN
 * index) and `ts_rank` of the stored vector. SQLite: the FTS table's matches with their bm25 (computed in the same
 * scan), then each match's row by rowid: `cross join`, which SQLite never reorders, so the FTS scan runs once. (A
 * plain join let the planner walk the posts newest first and run the MATCH again for each: 72-187 ms for a page of
 * 1,200 posts; a bm25 per row in a correlated subquery, likewise: 826 ms for 10,000 messages.)
 */
export function textSearch<T extends SearchedTable>(db: Kysely<Database>, table: T, words: readonly string[]): Required<TextSearch<T>> {
  const name = sql.raw(table);
  if (isPostgres(db)) {
    const query = sql`to_tsquery('simple'::regconfig, ${tsQuery(words)})`;
    return {
      from: (db.selectFrom(table) as unknown as SearchedSelect<T>).where(sql<boolean>`${name}.search_vector @@ ${query}`),
      rank: sql<number>`-ts_rank(${name}.search_vector, ${query})`,
    };
  }
  const fts = sql.raw(`${table}_fts`);
  const weights = sql.raw(SEARCHED[table].map(([, weight]) => FTS_WEIGHT[weight]).join(', '));
  const matches = sql<{ fts_rowid: number; fts_rank: number }>`(select rowid as fts_rowid, bm25(${fts}, ${weights}) as fts_rank from ${fts} where ${fts} match ${ftsMatch(words)})`;
  const joined = db.selectFrom(matches.as('fts_match')).crossJoin(table as SearchedTable) as unknown as SearchedSelect<T>;
  return { from: joined.where(sql<boolean>`${name}.rowid = fts_match.fts_rowid`), rank: sql<number>`fts_match.fts_rank` };
}

/**
 * `select … from` a list's table with its `q`: the table itself without search text; for text without a word (only
 * punctuation) no row and no rank; else `textSearch`.
 */
export function searchFor<T extends SearchedTable>(db: Kysely<Database>, table: T, q: string | undefined): TextSearch<T> {
  const all = db.selectFrom(table) as unknown as SearchedSelect<T>;
  if (!q?.trim()) return { from: all };
  const words = searchWords(q);
  return words.length > 0 ? textSearch(db, table, words) : { from: all.where(sql<boolean>`1 = 0`) };
}
