// Numbers as en-US shows them, written out here rather than with Intl.NumberFormat: the first Intl formatter of a page
// loads the browser's locale data, a long task on a phone while the page comes to life. The same strings: grouping commas, rounding half away from zero, a minus for negatives (and -0).

/** `n` rounded half away from zero to `digits` decimals, as whole units of 10^-digits (on its decimal form, as Intl). */
function units(abs: number, digits: number): number {
  return Math.round(Number(`${abs}e${digits}`));
}

/** A whole number's digits with a comma before each group of three: 1234567 -> 1,234,567. */
function group(whole: number): string {
  const digits = String(whole);
  let out = '';
  for (let i = 0; i < digits.length; i++) out += (i > 0 && (digits.length - i) % 3 === 0 ? ',' : '') + digits[i];
  return out;
}

/** en-US with at most (`fixed`: exactly) `digits` decimals. */
function decimal(n: number, digits: number, fixed: boolean): string {
  if (!Number.isFinite(n)) return Number.isNaN(n) ? 'NaN' : n > 0 ? '∞' : '-∞';
  const sign = n < 0 || Object.is(n, -0) ? '-' : '';
  const scaled = units(Math.abs(n), digits);
  const scale = 10 ** digits;
  let fraction = digits > 0 ? String(scaled % scale).padStart(digits, '0') : '';
  if (!fixed) while (fraction.endsWith('0')) fraction = fraction.slice(0, -1);
  return `${sign}${group(Math.floor(scaled / scale))}${fraction ? `.${fraction}` : ''}`;
}

/** `$` before the figure, after its sign: -$812.40. */
const dollars = (text: string) => (text.startsWith('-') ? `-$${text.slice(1)}` : `$${text}`);

/** US dollars: whole dollars from $1,000 up ($5,521), cents below ($812.40), where cents still matter. */
export const formatUsd = (n: number) => (Math.abs(n) >= 1000 ? formatUsdWhole(n) : dollars(decimal(n, 2, true)));
/** US dollars rounded to the dollar, for chart labels: $5,521. */
export const formatUsdWhole = (n: number) => dollars(decimal(n, 0, true));
/** Hours with at most one decimal: 220.8. */
export const formatHours = (n: number) => decimal(n, 1, false);
/** A percentage with at most two decimals: 7.73%. */
export const formatPercent = (n: number) => `${decimal(n, 2, false)}%`;
/** A whole count with grouping commas: 1,500 (what toLocaleString('en-US') shows). */
export const formatCount = (n: number) => decimal(n, 0, true);
/** A count with at most one decimal: 12.9. */
export const formatOneDecimal = (n: number) => decimal(n, 1, false);
/**
 * A stat's figure as shown: a number and the unit after it ('<30 s', '15 hours') joined by a no-break space, so a
 * narrow card never puts the unit on a line of its own.
 */
export const figureText = (figure: string) => figure.replace(/(\d)[ \t]+(?=\S)/g, '$1\u00a0');
