import { describe, expect, it } from 'vitest';
import { businessLocalToIso, formatInBusinessZone, parsePublishAt, publishAtProblem, toBusinessIso, toBusinessLocalInput } from '../post-schedule';

describe('publishAt rules', () => {
  it('accepts ISO 8601 with Z or an offset, and nothing else', () => {
    expect(parsePublishAt('2026-12-01T09:00:00-08:00')?.toISOString()).toBe('2026-12-01T17:00:00.000Z');
    expect(parsePublishAt('2026-12-01T17:00Z')?.toISOString()).toBe('2026-12-01T17:00:00.000Z');
    expect(parsePublishAt('2026-12-01T09:00:00.250+05:30')?.toISOString()).toBe('2026-12-01T03:30:00.250Z');
    for (const bad of ['2026-12-01T09:00:00', '2026-12-01 09:00:00Z', '2026-02-29T09:00:00Z', '2026-04-31T09:00Z', '2026-12-01T24:00Z', '1764608400', '']) {
      expect(parsePublishAt(bad), bad).toBeUndefined();
    }
    expect(parsePublishAt('2028-02-29T09:00:00Z')).toBeDefined();
  });

  it('refuses a long value before the pattern reads it, quoting only its start', () => {
    const hostile = `2026-12-01T09:00:00${'0'.repeat(100_000)}`;
    const problem = publishAtProblem(hostile, new Date('2026-11-01T00:00:00Z'))!;
    expect(problem).toMatch(/^publishAt must be an ISO 8601 .* \(got "2026-12-01T09:00:0{2,}"\)$/);
    expect(problem.length).toBeLessThan(200);
  });

  it('names the rule and the times in Pacific time', () => {
    const now = new Date('2026-12-01T16:15:00Z');
    expect(publishAtProblem('2026-11-30T09:00:00-08:00', now)).toBe(
      'publishAt must be in the future (got Mon, Nov 30, 2026, 9:00 AM PST, now is Tue, Dec 1, 2026, 8:15 AM PST)',
    );
    expect(publishAtProblem('2027-12-02T09:00:00-08:00', now)).toMatch(/^publishAt must be at most a year ahead \(got .* latest Wed, Dec 1, 2027, 8:15 AM PST\)$/);
    expect(publishAtProblem('2026-12-02T09:00:00-08:00', now)).toBeUndefined();
  });
});

describe('the business time zone (America/Los_Angeles)', () => {
  it('turns a datetime-local value into ISO with the offset of that day, winter and summer', () => {
    expect(businessLocalToIso('2026-12-01T09:00')).toBe('2026-12-01T09:00:00-08:00');
    expect(businessLocalToIso('2026-07-04T18:30')).toBe('2026-07-04T18:30:00-07:00');
    // The days the clocks change: before and after the change.
    expect(businessLocalToIso('2026-03-08T01:30')).toBe('2026-03-08T01:30:00-08:00');
    expect(businessLocalToIso('2026-03-08T03:30')).toBe('2026-03-08T03:30:00-07:00');
    expect(businessLocalToIso('2026-11-01T00:30')).toBe('2026-11-01T00:30:00-07:00');
    expect(businessLocalToIso('2026-11-01T03:00')).toBe('2026-11-01T03:00:00-08:00');
    expect(businessLocalToIso('2026-12-01T09:00:30')).toBe('2026-12-01T09:00:30-08:00');
    expect(businessLocalToIso('tomorrow 9am')).toBeUndefined();
  });

  it('shows an instant as the owner reads it, and round-trips through the date picker', () => {
    const at = '2026-12-01T17:00:00.000Z';
    expect(formatInBusinessZone(at)).toBe('Tue, Dec 1, 2026, 9:00 AM PST');
    expect(toBusinessIso(at)).toBe('2026-12-01T09:00:00-08:00');
    expect(toBusinessLocalInput(at)).toBe('2026-12-01T09:00');
    expect(parsePublishAt(businessLocalToIso(toBusinessLocalInput(at))!)?.toISOString()).toBe(at);
  });
});
