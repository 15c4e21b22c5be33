/** Characters a spreadsheet reads as the start of a formula when a cell begins with one (OWASP's list). */
const FORMULA_SIGNS = new Set(['=', '+', '-', '@', '\t', '\r']);
/**
 * Where a cell may begin: the comma we write, but also ';' (Excel splits on it where that is the list separator),
 * tab and line breaks (a paste splits on them).
 */
const SEPARATORS = new Set([',', ';', '\t', '\r', '\n']);

/**
 * Puts ' before every formula sign that could begin a cell (CWE-1236, OWASP "CSV Injection"): at the start of the
 * text, or after a separator inside it, so `a;=1+1` cannot start a cell with `=1+1` in a locale that splits on ';'.
 * Spaces and quotes before the sign do not make it text (Excel evaluates `"=1+1"` too). One pass, no regular
 * expression to backtrack on a long run of spaces.
 */
function neutralizeFormulas(text: string): string {
  let out = '';
  let cellStart = true;
  for (const ch of text) {
    if (cellStart && FORMULA_SIGNS.has(ch)) out += "'";
    out += ch;
    if (SEPARATORS.has(ch)) cellStart = true;
    else if (ch !== ' ' && ch !== '"') cellStart = false;
  }
  return out;
}

/**
 * One CSV cell (RFC 4180). Text is always quoted, quotes doubled, formula signs neutralised: the cell reads as the
 * text it is, with a ' before each sign, whichever separator the reader splits on. Numbers and booleans as they are.
 */
export function csvCell(value: string | number | boolean | null | undefined): string {
  if (value === null || value === undefined) return '';
  if (typeof value !== 'string') return String(value);
  return `"${neutralizeFormulas(value).replace(/"/g, '""')}"`;
}

type CsvValue = string | number | boolean | null | undefined;

/** One CSV line with its CRLF end: a file is its lines one after another, so it can be written a batch at a time. */
export function csvLine(row: readonly CsvValue[]): string {
  return `${row.map(csvCell).join(',')}\r\n`;
}

/** Rows to CSV text with CRLF line ends, as spreadsheets expect. */
export function toCsv(rows: readonly (readonly CsvValue[])[]): string {
  return rows.map(csvLine).join('');
}
