/**
 * What a search box's text means, on every list that searches (`GET /api/posts`, `/api/admin/posts`,
 * `/api/admin/leads`): its words, each lower case; a word is a run of letters and digits (and private-use characters),
 * everything else separates words. The server splits stored text the same way (SQLite FTS5 `unicode61`, PostgreSQL's
 * parser after ASCII punctuation is made spaces: api/src/db/migrations/0017-search.ts), so the search text is never
 * query syntax and `jane@example.com` is the three words `jane`, `example`, `com`.
 */
/**
 * A search's `total` counts its matches up to this many and then says `totalIsLowerBound` (the screens show
 * "1,000+"): the server reads no further than the matches it ranks, whatever the number of rows.
 */
export const SEARCH_COUNT_LIMIT = 1_000;

export function searchWords(q: string | undefined): string[] {
  if (!q) return [];
  return q
    .normalize('NFC')
    .toLowerCase()
    .split(/[^\p{L}\p{N}\p{Co}]+/u)
    .filter((word) => word.length > 0);
}

/**
 * True when texts match a search as the server's full-text index does: every word of `q` is a word of one of the
 * texts, the last one may be the start of a word; a text with no word matches nothing; an empty `q` everything.
 */
export function textMatches(texts: ReadonlyArray<string | null | undefined>, q: string): boolean {
  if (!q.trim()) return true;
  const words = searchWords(q);
  if (words.length === 0) return false;
  const have = texts.flatMap((text) => searchWords(text ?? ''));
  return words.every((word, i) => (i === words.length - 1 ? have.some((w) => w.startsWith(word)) : have.includes(word)));
}
