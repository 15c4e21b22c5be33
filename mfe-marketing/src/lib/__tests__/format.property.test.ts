/**
 * The calculator's figures are written out without Intl (lib/format.ts: the first Intl formatter of a page loads the
 * browser's locale data, a long task on a phone). They must read exactly as en-US Intl.NumberFormat writes them:
 * compared here, on generated amounts and on the cases where rounding differs between methods (x.xx5, -0, 999.995).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatCount, formatHours, formatOneDecimal, formatPercent, formatUsd, formatUsdWhole } from '../format';

const usdCents = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' });
const usdWhole = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD', maximumFractionDigits: 0 });
const twoDecimals = new Intl.NumberFormat('en-US', { minimumFractionDigits: 0, maximumFractionDigits: 2 });
const oneDecimal = new Intl.NumberFormat('en-US', { minimumFractionDigits: 0, maximumFractionDigits: 1 });
const wholeCount = new Intl.NumberFormat('en-US');

const asIntl: [string, (n: number) => string, (n: number) => string][] = [
  ['formatUsd', formatUsd, (n) => (Math.abs(n) >= 1000 ? usdWhole.format(n) : usdCents.format(n))],
  ['formatUsdWhole', formatUsdWhole, (n) => usdWhole.format(n)],
  ['formatHours', formatHours, (n) => oneDecimal.format(n)],
  ['formatPercent', formatPercent, (n) => `${twoDecimals.format(n)}%`],
  ['formatOneDecimal', formatOneDecimal, (n) => oneDecimal.format(n)],
];

/** Amounts as the calculator meets them: cents and tenths, up to millions, now and then negative. */
const amount = fc
  .tuple(fc.integer({ min: 0, max: 10 ** 9 }), fc.integer({ min: 0, max: 4 }), fc.boolean())
  .map(([units, decimals, negative]) => (negative ? -1 : 1) * (units / 10 ** decimals));

describe('figures written out read as en-US Intl writes them', () => {
  for (const [name, ours, intl] of asIntl) {
    it(`${name}, on the cases rounding tells apart`, () => {
      for (const n of [0, -0, 0.5, 1.005, 2.675, 1.45, 1.55, 7.725, 7.735, 0.045, 0.055, 99.95, 999.5, 999.994, 999.995, 1000, 1234.5, 5521.4999, 12345678.9, -0.001, -1.005, -2.5, 0.1 + 0.2]) {
        expect(ours(n), String(n)).toBe(intl(n));
      }
    });
    it(`${name}, on generated amounts`, () => {
      fc.assert(fc.property(amount, (n) => ours(n) === intl(n)), { numRuns: 2000 });
    });
  }
  it('formatCount groups whole counts as toLocaleString does', () => {
    fc.assert(fc.property(fc.integer({ min: -(10 ** 9), max: 10 ** 9 }), (n) => formatCount(n) === wholeCount.format(n)), { numRuns: 2000 });
  });
});
