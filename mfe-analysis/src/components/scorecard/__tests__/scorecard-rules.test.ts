import { describe, expect, it } from 'vitest';
import { formatDate, normalizeResult } from '../normalize-result';
import { scoreTone, strengthTone } from '../score-tone';
import { businessNoun, standingWords } from '../standing-words';
import { changeSince } from '../what-changed';

describe('scorecard rules', () => {
  it('score tones at the 80/60/40 thresholds, grey without data', () => {
    expect([100, 80, 79, 60, 59, 40, 39, 0].map((s) => scoreTone(s))).toEqual(['green', 'green', 'yellow', 'yellow', 'orange', 'orange', 'red', 'red']);
    expect(scoreTone(90, false)).toBe('grey');
    expect([10, 8, 7, 5, 4, 0].map(strengthTone)).toEqual(['green', 'green', 'yellow', 'yellow', 'red', 'red']);
  });

  it("formats dates and shows 'Unknown' for an invalid or missing one", () => {
    expect(formatDate('2026-11-20T10:00:00.000Z')).toBe('November 20, 2026');
    // In the East Bay's time zone, whatever the machine's: the server and the browser render the same words.
    expect(formatDate('2026-11-21T03:00:00.000Z')).toBe('November 20, 2026');
    expect(formatDate('2026-11-21T03:00:00.000Z', true)).toBe('Nov 20, 2026, 7:00 PM PST');
    expect(formatDate('yesterday')).toBe('Unknown');
    expect(formatDate(undefined)).toBe('Unknown');
  });

  it('change since the previous report: +4, −2 (minus sign), no change, nothing without a previous score', () => {
    const prev = { id: 'p', analyzedAt: '2026-11-20T10:00:00Z', scores: { overall: 80, visibility: 50 } };
    expect(changeSince(prev, 'overall', 84)).toEqual({ delta: 4, text: '+4', spoken: 'up 4 points' });
    expect(changeSince(prev, 'visibility', 48)).toEqual({ delta: -2, text: '\u22122', spoken: 'down 2 points' });
    expect(changeSince(prev, 'visibility', 50)).toEqual({ delta: 0, text: 'no change', spoken: 'no change' });
    expect(changeSince(prev, 'reputation', 50)).toBeNull();
    expect(changeSince(null, 'overall', 50)).toBeNull();
  });

  it('standing words name the competitors by business type and town, or give the reason', () => {
    const base = { location: 'Danville, CA', businessType: 'Restaurant', competitorCount: 18, ratingPercentile: 62, reviewPercentile: 40, rating: 4.5, reviewCount: 87, medianReviews: 120, reason: null };
    expect(standingWords(base, 'Danville, CA')).toEqual({
      rating: 'Rating higher than 62% of 18 restaurants in Danville',
      reviews: 'More reviews than 40% of them (median 120, yours 87)',
      reason: null,
    });
    expect(businessNoun('Healthcare', 2)).toBe('healthcare practices');
    expect(businessNoun('Service Business', 1)).toBe('service business');
    expect(standingWords({ ...base, ratingPercentile: null, reason: 'Too few same-type businesses were found in Danville, CA to compare with (2).' }, 'Danville, CA').reason).toMatch(/^Too few/);
    expect(standingWords(null, null).reason).toBe('No location was selected, so there are no local competitors to compare with.');
  });

  it('normalizes a partial answer without throwing', () => {
    const d = normalizeResult({ businessInfo: { businessName: '  ' }, scores: { overall: { score: 'high' } }, recommendations: [null, { title: 'Do this' }] } as never);
    expect(d.businessName).toBe('Unknown Business');
    expect(d.scores.overall).toMatchObject({ score: 0, label: 'No Data', verified: false, missing: true });
    expect(d.recommendations).toEqual([{ title: 'Do this' }]);
    expect(normalizeResult(null).location).toBe('Unknown Location');
  });
});
