/** Cells a spreadsheet would run as a formula (CWE-1236): leading =, +, -, @, tab or carriage return. */
const FORMULA_START = /^[=+\-@\t\r]/;

/** One CSV cell (RFC 4180): formula-looking text is prefixed with ', then quoted when it holds , " CR or LF. */
export function csvCell(value: string | number | boolean | null | undefined): string {
  if (value === null || value === undefined) return '';
  let text = String(value);
  if (typeof value === 'string' && FORMULA_START.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** Rows to CSV text with CRLF line ends, as spreadsheets expect. */
export function toCsv(rows: readonly (readonly (string | number | boolean | null | undefined)[])[]): string {
  return rows.map((row) => row.map(csvCell).join(',')).join('\r\n') + '\r\n';
}
