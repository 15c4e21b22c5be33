import { BUSINESS_TIME_ZONE } from '@site/contracts/post-schedule';

/*
 * Every time in the admin is the business's (Pacific), with its zone named, wherever the owner opens the panel:
 * the schedule and History already said "PST"; Recently deleted, the autosave notice and the logs said the browser's
 * time without saying so.
 */
const dateTime = new Intl.DateTimeFormat('en-US', {
  timeZone: BUSINESS_TIME_ZONE,
  year: 'numeric',
  month: 'short',
  day: 'numeric',
  hour: 'numeric',
  minute: '2-digit',
  timeZoneName: 'short',
});
const day = new Intl.DateTimeFormat('en-US', { timeZone: BUSINESS_TIME_ZONE, year: 'numeric', month: 'short', day: 'numeric' });

/** `Jan 15, 2024, 9:00 AM PST`, in the business's zone; '' for a missing or invalid date. */
export function formatDateTime(iso: string | null | undefined): string {
  if (!iso) return '';
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return '';
  return dateTime.format(d);
}

/** `Jan 15, 2024`, the business's day; '—' when missing. */
export function formatDay(iso: string | null | undefined): string {
  if (!iso) return '—';
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return '—';
  return day.format(d);
}

export const formatNumber = (n: number) => n.toLocaleString('en-US');

/**
 * A search's count as the server gave it: `1,000+` when it stopped counting there (`totalIsLowerBound`: a search reads
 * no further than the matches it ranks), else the number.
 */
export const formatCount = (total: number, totalIsLowerBound?: boolean) => (totalIsLowerBound ? `${formatNumber(total)}+` : String(total));

/** "3 minutes ago" style, for times within the last days; falls back to the date. */
export function formatRelative(iso: string | null | undefined, now = Date.now()): string {
  if (!iso) return '';
  const t = new Date(iso).getTime();
  if (Number.isNaN(t)) return '';
  const s = Math.round((now - t) / 1000);
  if (s < 45) return 'just now';
  const rtf = new Intl.RelativeTimeFormat('en-US', { numeric: 'auto' });
  if (s < 3600) return rtf.format(-Math.round(s / 60), 'minute');
  if (s < 86_400) return rtf.format(-Math.round(s / 3600), 'hour');
  if (s < 7 * 86_400) return rtf.format(-Math.round(s / 86_400), 'day');
  return formatDay(iso);
}

/** A rate as the owner reads it: 2.5%, 0%, or a dash without page views. */
export function formatRate(rate: number | null): string {
  if (rate === null) return '–';
  const percent = rate * 100;
  return `${percent >= 10 || percent === 0 ? Math.round(percent) : Math.round(percent * 10) / 10}%`;
}
