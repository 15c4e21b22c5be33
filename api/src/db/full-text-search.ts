import { PostgresAdapter, sql, type Kysely, type RawBuilder } from 'kysely';
import type { Database } from './schema';

/*
 * Search text against the database's full-text index (migrations/0017-search.ts): SQLite FTS5 tables `<table>_fts`,
 * PostgreSQL GIN indexes on the expression below. The same rules on both: every word of the search must be in the row
 * (in any of the searched columns), the last word may be the start of a word ("autom" finds "automation"),
 * case-insensitive. Words are runs of letters and digits; everything else separates them, in the rows as in the search
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

/** The words of a search text, lower case: what both indexes split text into (FTS5 unicode61: letters, digits, private use). */
export function searchWords(q: string | undefined): string[] {
  if (!q) return [];
  return q
    .normalize('NFC')
    .toLowerCase()
    .split(/[^\p{L}\p{N}\p{Co}]+/u)
    .filter((word) => word.length > 0);
}

/** FTS5 `MATCH` text: each word a quoted string (implicitly ANDed), the last one a prefix. */
export function ftsMatch(words: readonly string[]): string {
  return words.map((word, i) => `"${word.replace(/"/g, '""')}"${i === words.length - 1 ? '*' : ''}`).join(' ');
}

/** PostgreSQL `to_tsquery` text: each word quoted, ANDed, the last one a prefix. */
export function tsQuery(words: readonly string[]): string {
  return words.map((word, i) => `'${word.replace(/'/g, "''")}'${i === words.length - 1 ? ':*' : ''}`).join(' & ');
}

// Verbatim the migration's index expression (PostgreSQL uses the index only for the identical expression; the
// search tests' EXPLAIN shows it does).
const PUNCTUATION = `'!"#$%&''()*+,-./:;<=>?@[\\]^_\`{|}~'`;
const SPACES = `'${' '.repeat(32)}'`;
function pgVector(table: SearchedTable): string {
  return SEARCHED[table]
    .map(([column, weight]) => `setweight(to_tsvector('simple'::regconfig, translate(coalesce(${column}, ''), ${PUNCTUATION}, ${SPACES})), '${weight}')`)
    .join(' || ');
}

/** bm25 weights per column in PostgreSQL's default proportions (A 1, B 0.4, C 0.2). */
const FTS_WEIGHT = { A: '1.0', B: '0.4', C: '0.2', D: '0.1' } as const;

export function isPostgres(db: Kysely<Database>): boolean {
  return db.getExecutor().adapter instanceof PostgresAdapter;
}

export interface TextSearch {
  /** Rows of `table` (unaliased, in the FROM) matching the words: served by the full-text index. */
  matches: RawBuilder<boolean>;
  /** Relevance of a row that matches, smaller is better (order ascending). */
  rank: RawBuilder<number>;
}

/**
 * The condition and rank for `words` (at least one) over `table`. On SQLite both are subqueries on the FTS table by
 * rowid: the condition is `rowid in (… match …)` (one FTS lookup), the rank a bm25 of the row's own FTS entry.
 */
export function textSearch(db: Kysely<Database>, table: SearchedTable, words: readonly string[]): TextSearch {
  if (isPostgres(db)) {
    const vector = sql.raw(`(${pgVector(table)})`);
    const query = sql`to_tsquery('simple'::regconfig, ${tsQuery(words)})`;
    return { matches: sql<boolean>`${vector} @@ ${query}`, rank: sql<number>`-ts_rank(${vector}, ${query})` };
  }
  const fts = sql.raw(`${table}_fts`);
  const match = ftsMatch(words);
  const weights = sql.raw(SEARCHED[table].map(([, weight]) => FTS_WEIGHT[weight]).join(', '));
  return {
    matches: sql<boolean>`${sql.raw(table)}.rowid in (select rowid from ${fts} where ${fts} match ${match})`,
    rank: sql<number>`(select bm25(${fts}, ${weights}) from ${fts} where ${fts} match ${match} and ${fts}.rowid = ${sql.raw(table)}.rowid)`,
  };
}

/**
 * The search of a list's `q`: undefined without text (no search); for text without a word (only punctuation), a
 * condition no row meets and no rank; else `textSearch`.
 */
export function searchFor(db: Kysely<Database>, table: SearchedTable, q: string | undefined): { matches: RawBuilder<boolean>; rank?: RawBuilder<number> } | undefined {
  if (!q?.trim()) return undefined;
  const words = searchWords(q);
  return words.length > 0 ? textSearch(db, table, words) : { matches: sql<boolean>`1 = 0` };
}
