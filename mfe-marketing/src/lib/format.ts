const usdCents = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' });
const usdWhole = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD', maximumFractionDigits: 0 });
const twoDecimals = new Intl.NumberFormat('en-US', { minimumFractionDigits: 0, maximumFractionDigits: 2 });
const oneDecimal = new Intl.NumberFormat('en-US', { minimumFractionDigits: 0, maximumFractionDigits: 1 });

/** US dollars: whole dollars from $1,000 up ($5,521), cents below ($812.40), where cents still matter. */
export const formatUsd = (n: number) => (Math.abs(n) >= 1000 ? usdWhole.format(n) : usdCents.format(n));
/** US dollars rounded to the dollar, for chart labels: $5,521. */
export const formatUsdWhole = (n: number) => usdWhole.format(n);
/** Hours with at most one decimal: 220.8. */
export const formatHours = (n: number) => oneDecimal.format(n);
/** A percentage with at most two decimals: 7.73%. */
export const formatPercent = (n: number) => `${twoDecimals.format(n)}%`;
/** A count with at most one decimal: 12.9. */
export const formatOneDecimal = (n: number) => oneDecimal.format(n);
/**
 * A stat's figure as shown: a number and the unit after it ('<30 s', '15 hours') joined by a no-break space, so a
 * narrow card never puts the unit on a line of its own.
 */
export const figureText = (figure: string) => figure.replace(/(\d)[ \t]+(?=\S)/g, '$1\u00a0');
