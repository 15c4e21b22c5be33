import { afterEach, describe, expect, it } from 'vitest';
import { formatDateTime, formatDay, formatRelative } from '../format';

const zone = process.env.TZ;
afterEach(() => {
  if (zone === undefined) delete process.env.TZ;
  else process.env.TZ = zone;
});

describe('admin times', () => {
  it.each(['UTC', 'Asia/Tokyo', 'America/New_York'])('are the business’s Pacific time with the zone named, for a browser in %s', (browserZone) => {
    process.env.TZ = browserZone;
    expect(formatDateTime('2026-01-15T17:00:00Z')).toBe('Jan 15, 2026, 9:00 AM PST');
    expect(formatDateTime('2026-07-04T02:30:00Z')).toBe('Jul 3, 2026, 7:30 PM PDT');
    // The business's day, not the browser's: 11 PM on the 14th in California is the 15th in UTC.
    expect(formatDay('2026-01-15T07:00:00Z')).toBe('Jan 14, 2026');
    expect(formatRelative('2025-01-15T07:00:00Z', Date.parse('2026-01-15T07:00:00Z'))).toBe('Jan 14, 2025');
  });

  it('says nothing for a missing or broken time', () => {
    expect(formatDateTime(null)).toBe('');
    expect(formatDateTime('not a date')).toBe('');
    expect(formatDay(undefined)).toBe('—');
  });
});
