/*
 * Scheduled publishing's pure rules, shared by the API (webhook and admin validation), the admin's date picker and
 * the OpenAPI description: the business's time zone, the accepted `publishAt` format, and the window a schedule may
 * fall in. No zod, no dependencies: `Intl` does the time-zone arithmetic.
 */

/** Where the business is: times are entered and shown in this zone, with its name next to them. */
export const BUSINESS_TIME_ZONE = 'America/Los_Angeles';
/** How the zone is named next to a time (both halves of the year). */
export const BUSINESS_TIME_ZONE_LABEL = 'Pacific Time (Los Angeles)';

/** A schedule may be at most this far ahead (a year). */
export const SCHEDULE_MAX_AHEAD_MS = 365 * 24 * 60 * 60 * 1000;

/** ISO 8601 date and time with an offset (`Z` or ±hh:mm), seconds and milliseconds optional. Linear: no nesting. */
const ISO_WITH_OFFSET = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,3})?)?(?:Z|[+-]\d{2}:\d{2})$/;

export const PUBLISH_AT_EXAMPLE = '2026-12-01T09:00:00-08:00';

export const SCHEDULE_MESSAGES = {
  required: `publishAt is required when status is "scheduled": an ISO 8601 date and time with its UTC offset, e.g. ${PUBLISH_AT_EXAMPLE}`,
  format: `publishAt must be an ISO 8601 date and time with its UTC offset, e.g. ${PUBLISH_AT_EXAMPLE}`,
  past: 'publishAt must be in the future',
  tooFar: 'publishAt must be at most a year ahead',
  onlyScheduled: 'publishAt is only accepted with status "scheduled"',
  onlyDraftsOrScheduled: 'Only drafts and scheduled posts can be scheduled',
  notScheduled: 'This post is not scheduled',
} as const;

/**
 * Parses `publishAt`: the instant as a Date, or undefined when it is not ISO 8601 with an offset or names a day or
 * time that does not exist (2026-02-30, 25:00).
 */
export function parsePublishAt(value: string): Date | undefined {
  // The longest valid value is 29 characters: anything longer is refused before the pattern reads it.
  if (value.length > 40) return undefined;
  const m = ISO_WITH_OFFSET.exec(value);
  if (!m) return undefined;
  const [, y, mo, d, h, mi, s] = m;
  const month = Number(mo);
  const day = Number(d);
  const daysInMonth = new Date(Date.UTC(Number(y), month, 0)).getUTCDate();
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth) return undefined;
  if (Number(h) > 23 || Number(mi) > 59 || Number(s ?? 0) > 59) return undefined;
  const time = Date.parse(value);
  return Number.isNaN(time) ? undefined : new Date(time);
}

/**
 * Why a `publishAt` cannot be used at `now`, or undefined when it can: the message names what was received and the
 * bounds in the business's time zone, so an n8n user sees what to send.
 */
export function publishAtProblem(value: string, now: Date): string | undefined {
  const at = parsePublishAt(value);
  if (!at) return `${SCHEDULE_MESSAGES.format} (got "${value.slice(0, 60)}")`;
  if (at.getTime() <= now.getTime()) return `${SCHEDULE_MESSAGES.past} (got ${formatInBusinessZone(at)}, now is ${formatInBusinessZone(now)})`;
  const latest = new Date(now.getTime() + SCHEDULE_MAX_AHEAD_MS);
  if (at.getTime() > latest.getTime()) return `${SCHEDULE_MESSAGES.tooFar} (got ${formatInBusinessZone(at)}, latest ${formatInBusinessZone(latest)})`;
  return undefined;
}

const displayFormat = new Intl.DateTimeFormat('en-US', {
  timeZone: BUSINESS_TIME_ZONE,
  weekday: 'short',
  month: 'short',
  day: 'numeric',
  year: 'numeric',
  hour: 'numeric',
  minute: '2-digit',
  timeZoneName: 'short',
});

/** `Tue, Dec 1, 2026, 9:00 AM PST`: a time as the owner reads it, the zone named. */
export function formatInBusinessZone(at: Date | string): string {
  return displayFormat.format(typeof at === 'string' ? new Date(at) : at);
}

const partsFormat = new Intl.DateTimeFormat('en-US', {
  timeZone: BUSINESS_TIME_ZONE,
  hourCycle: 'h23',
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
});

/** The wall-clock fields of an instant in the business's zone. */
function zonedParts(at: Date) {
  const parts = Object.fromEntries(partsFormat.formatToParts(at).map((p) => [p.type, p.value]));
  return {
    year: Number(parts.year),
    month: Number(parts.month),
    day: Number(parts.day),
    hour: Number(parts.hour),
    minute: Number(parts.minute),
    second: Number(parts.second),
  };
}

/** The zone's offset from UTC at an instant, in minutes (-480 for PST, -420 for PDT). */
function offsetMinutes(at: Date): number {
  const p = zonedParts(at);
  const asUtc = Date.UTC(p.year, p.month - 1, p.day, p.hour, p.minute, p.second);
  return Math.round((asUtc - Math.floor(at.getTime() / 1000) * 1000) / 60_000);
}

const pad = (n: number, width = 2) => String(Math.abs(n)).padStart(width, '0');

/** An instant as ISO 8601 in the business's zone with its offset: `2026-12-01T09:00:00-08:00`. */
export function toBusinessIso(at: Date | string): string {
  const date = typeof at === 'string' ? new Date(at) : at;
  const p = zonedParts(date);
  const offset = offsetMinutes(date);
  const sign = offset < 0 ? '-' : '+';
  return `${p.year}-${pad(p.month)}-${pad(p.day)}T${pad(p.hour)}:${pad(p.minute)}:${pad(p.second)}${sign}${pad(Math.trunc(offset / 60))}:${pad(offset % 60)}`;
}

/** The value of an `<input type="datetime-local">` (`2026-12-01T09:00`) showing an instant in the business's zone. */
export function toBusinessLocalInput(at: Date | string): string {
  return toBusinessIso(at).slice(0, 16);
}

/**
 * A wall-clock time in the business's zone (`2026-12-01T09:00` or `…T09:00:30`, as a datetime-local input gives it) as ISO 8601 with
 * the zone's offset at that time, or undefined when it is not such a value. (A wall time that does not exist, in the
 * hour skipped in spring, comes out an hour away; the owner sees the stored time, zone named, in the list.)
 */
export function businessLocalToIso(local: string): string | undefined {
  // Seconds are optional: a datetime-local input gives them when its value has any.
  const m = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2}))?$/.exec(local);
  if (!m) return undefined;
  const [year, month, day, hour, minute, second] = m.slice(1).map((part) => Number(part ?? 0)) as [number, number, number, number, number, number];
  const wall = Date.UTC(year, month - 1, day, hour, minute, second);
  if (Number.isNaN(wall)) return undefined;
  // The offset at the guess, then at the corrected instant: two steps settle across a daylight-saving change.
  let instant = wall - offsetMinutes(new Date(wall)) * 60_000;
  instant = wall - offsetMinutes(new Date(instant)) * 60_000;
  const iso = toBusinessIso(new Date(instant));
  return parsePublishAt(iso) ? iso : undefined;
}
