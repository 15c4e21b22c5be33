import { SITE } from '@site/ui';

/**
 * External scheduling pages. Set VITE_BOOKING_URL / VITE_CALENDAR_URL at build time to point at other
 * accounts; only http(s) URLs are accepted, anything else falls back to the defaults.
 */
function httpUrl(value: unknown, fallback: string): string {
  if (typeof value !== 'string' || !/^https?:\/\//i.test(value.trim())) return fallback;
  return value.trim();
}

export const LINKS = {
  booking: httpUrl(import.meta.env.VITE_BOOKING_URL, SITE.bookingUrl),
  calendar: httpUrl(import.meta.env.VITE_CALENDAR_URL, SITE.calendarUrl),
} as const;
