/**
 * Post dates and view counts are written out without Intl (lib/format.ts: the first Intl formatter of a page loads the
 * browser's locale data, a long task on a phone); they read exactly as toLocaleDateString / toLocaleString in en-US.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatPostDate, formatPostViews } from '@site/ui/post-format';
import { formatDate, formatViews } from '../format';

const asIntlDate = (iso: string) => new Date(iso).toLocaleDateString('en-US', { year: 'numeric', month: 'long', day: 'numeric', timeZone: 'UTC' });
const asIntlViews = (n: number) => `${n.toLocaleString('en-US')} ${n === 1 ? 'view' : 'views'}`;
const instant = fc.integer({ min: Date.UTC(1970, 0, 1), max: Date.UTC(2200, 0, 1) }).map((t) => new Date(t).toISOString());

describe('post dates and view counts written out read as en-US Intl writes them', () => {
  it('dates, in UTC (the day never shifts between server and reader)', () => {
    fc.assert(
      fc.property(instant, (iso) => formatDate(iso) === asIntlDate(iso) && formatPostDate(iso) === asIntlDate(iso)),
      { numRuns: 2000 },
    );
    expect(formatDate('2024-01-15T23:59:59.999Z')).toBe('January 15, 2024');
    expect(formatDate(null)).toBe('');
    expect(formatPostDate('not a date')).toBe('');
  });
  it('view counts, grouped', () => {
    fc.assert(
      fc.property(fc.nat({ max: 10 ** 9 }), (n) => formatViews(n) === asIntlViews(n) && formatPostViews(n) === asIntlViews(n)),
      { numRuns: 2000 },
    );
    expect(formatViews(1)).toBe('1 view');
    expect(formatViews(1234)).toBe('1,234 views');
  });
});
