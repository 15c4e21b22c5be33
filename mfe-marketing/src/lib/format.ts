const usd = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' });
const usdWhole = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD', maximumFractionDigits: 0 });
const twoDecimals = new Intl.NumberFormat('en-US', { minimumFractionDigits: 0, maximumFractionDigits: 2 });
const oneDecimal = new Intl.NumberFormat('en-US', { minimumFractionDigits: 0, maximumFractionDigits: 1 });

/** US dollars with cents: $5,520.75. */
export const formatUsd = (n: number) => usd.format(n);
/** US dollars rounded to the dollar, for chart labels: $5,521. */
export const formatUsdWhole = (n: number) => usdWhole.format(n);
/** Hours with at most two decimals: 220.83. */
export const formatHours = (n: number) => twoDecimals.format(n);
/** A percentage with at most two decimals: 7.73%. */
export const formatPercent = (n: number) => `${twoDecimals.format(n)}%`;
/** Months with one decimal: 12.9. */
export const formatMonths = (n: number) => oneDecimal.format(n);
