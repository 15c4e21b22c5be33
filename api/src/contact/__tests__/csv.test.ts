import { describe, expect, it } from 'vitest';
import { csvCell, toCsv } from '../csv';

/** An RFC 4180 reader, as a spreadsheet in a comma locale reads the file: quoted cells, doubled quotes, CRLF rows. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (quoted && ch === '"' && text[i + 1] === '"') {
      cell += '"';
      i++;
    } else if (ch === '"') {
      quoted = !quoted;
    } else if (!quoted && ch === ',') {
      row.push(cell);
      cell = '';
    } else if (!quoted && ch === '\r' && text[i + 1] === '\n') {
      row.push(cell);
      rows.push(row);
      row = [];
      cell = '';
      i++;
    } else {
      cell += ch;
    }
  }
  return rows;
}

/**
 * The cells a reader that splits on `separator` (Excel where ';' is the list separator, or a paste on tabs and line
 * breaks) would start, with the quotes and spaces in front of them dropped, as Excel drops them before a formula.
 */
const cellStartsWhenSplitOn = (csv: string, separator: RegExp) => csv.split(separator).map((piece) => piece.replace(/^[ "]+/, ''));

const FORMULA_START = /^[=+\-@\t\r]/;

const HOSTILE = [
  'a;=1+1',
  'a; =1+1',
  'a;"=1+1',
  '=HYPERLINK("http://evil.test","click")',
  '+1',
  '-1',
  '@SUM(A1:A2)',
  '\t=1+1',
  '\r=1+1',
  'first line\n=1+1',
  'one,two,=3',
  'tab\t+1',
];

describe('leads CSV cells', () => {
  it.each(HOSTILE)('neutralises %j: every cell start, whatever the reader splits on, is text', (value) => {
    const csv = toCsv([['name', value, 'after']]);
    for (const separator of [/,|\r\n/, /;|\r\n/, /\t|\r\n/, /[\r\n]/]) {
      for (const start of cellStartsWhenSplitOn(csv, separator)) expect(start, `${JSON.stringify(csv)} split on ${separator}`).not.toMatch(FORMULA_START);
    }
  });

  it('writes the exact neutralised text: a quote before each formula sign that could start a cell, nothing else changed', () => {
    expect(csvCell('a;=1+1')).toBe(`"a;'=1+1"`);
    expect(csvCell('=HYPERLINK("http://evil.test","x")')).toBe(`"'=HYPERLINK(""http://evil.test"",""x"")"`);
    expect(csvCell('+1')).toBe(`"'+1"`);
    expect(csvCell('-1')).toBe(`"'-1"`);
    expect(csvCell('@SUM(A1)')).toBe(`"'@SUM(A1)"`);
    expect(csvCell('\tx')).toBe(`"'\tx"`);
    expect(csvCell('\rx')).toBe(`"'\rx"`);
    // Signs inside a word or after a letter cannot start a cell: left alone.
    expect(csvCell('well-known e-mail a+b x=y me@example.com')).toBe('"well-known e-mail a+b x=y me@example.com"');
  });

  it('quotes every text cell (RFC 4180, quotes doubled) and reads back as the text with only those quotes added', () => {
    const values = ['Plain text', 'Casey "Chef" Kim', 'Line one\nline two', 'a, b; c', '', ...HOSTILE];
    const csv = toCsv([['header', 'value'], ...values.map((v, i) => [`row ${i}`, v])]);
    expect(csv.endsWith('\r\n')).toBe(true);
    const lines = csv.split('\r\n');
    expect(lines[0]).toBe('"header","value"');
    expect(lines[1]).toBe('"row 0","Plain text"');
    expect(lines[2]).toBe('"row 1","Casey ""Chef"" Kim"');
    const read = parseCsv(csv);
    expect(read).toHaveLength(values.length + 1);
    read.slice(1).forEach(([, cell], i) => {
      const original = values[i]!;
      expect(cell!.replace(/'(?=[=+\-@\t\r])/g, ''), JSON.stringify(original)).toBe(original);
    });
    expect(read.slice(1, 6).map((r) => r[1])).toEqual(['Plain text', 'Casey "Chef" Kim', 'Line one\nline two', 'a, b; c', '']);
  });

  it('writes numbers and booleans as they are, and nothing for null', () => {
    expect(toCsv([[-1, 2.5, true, null, undefined]])).toBe('-1,2.5,true,,\r\n');
  });

  it('stays linear on a hostile cell (a long run of spaces and separators before a sign)', () => {
    const value = `${' '.repeat(200_000)}${'; "'.repeat(200_000)}=1`;
    const cell = csvCell(value);
    expect(cell.endsWith(`; ""'=1"`)).toBe(true);
    // One ' (before the only sign) and the two quotes around the cell, plus each quote of the text doubled.
    expect(cell).toHaveLength(value.length + 1 + 2 + 200_000);
  });
});
