// A post's date, views and read time as shown (the article, the blog's cards): a leaf module, free of DOMPurify.

const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

/** `January 15, 2024` (UTC, so a date never shifts by a day between server and reader). */
export function formatPostDate(iso: string | null): string {
  if (!iso) return '';
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return '';
  // Written out rather than toLocaleDateString: the page's first Intl formatter loads the browser's locale data, a long
  // task on a phone while the page comes to life. The same text.
  return `${MONTHS[date.getUTCMonth()]} ${date.getUTCDate()}, ${date.getUTCFullYear()}`;
}

/** `1,234 views` (grouped as en-US, without Intl: see the date above). */
export function formatPostViews(n: number): string {
  const digits = String(n);
  let grouped = '';
  for (let i = 0; i < digits.length; i++) grouped += (i > 0 && (digits.length - i) % 3 === 0 ? ',' : '') + digits[i];
  return `${grouped} ${n === 1 ? 'view' : 'views'}`;
}
export const formatReadTime = (minutes: number) => `${minutes} min read`;
