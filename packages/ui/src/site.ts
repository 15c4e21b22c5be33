import { SITE_NAME, SITE_ORIGIN_ATTRIBUTE } from '@site/contracts/site';

/** Opening hours as schema.org spells them: day range (`Mo-Fr`) and 24-hour times (`09:00`). */
export interface BusinessHours {
  days: `${DayCode}-${DayCode}` | DayCode;
  opens: `${number}:${number}`;
  closes: `${number}:${number}`;
}
type DayCode = 'Mo' | 'Tu' | 'We' | 'Th' | 'Fr' | 'Sa' | 'Su';

const DAY_NAMES: Record<DayCode, string> = { Mo: 'Mon', Tu: 'Tue', We: 'Wed', Th: 'Thu', Fr: 'Fri', Sa: 'Sat', Su: 'Sun' };

/** `09:00` as visitors read it: `9AM`; `18:30`: `6:30PM`. */
function clockText(time: string): string {
  const [h = 0, m = 0] = time.split(':').map(Number);
  return `${h % 12 || 12}${m ? `:${String(m).padStart(2, '0')}` : ''}${h < 12 ? 'AM' : 'PM'}`;
}

/** The hours as the pages show them (footer, hero, contact section): `Mon-Fri 9AM-6PM`. */
export function hoursText(hours: BusinessHours): string {
  const days = hours.days
    .split('-')
    .map((d) => DAY_NAMES[d as DayCode])
    .join('-');
  return `${days} ${clockText(hours.opens)}-${clockText(hours.closes)}`;
}

/** The hours as structured data's `openingHours` says them: `Mo-Fr 09:00-18:00`. */
export function openingHoursSchema(hours: BusinessHours): string {
  return `${hours.days} ${hours.opens}-${hours.closes}`;
}

/**
 * The business's opening hours, the one value both the hours visitors read and the structured data's
 * `openingHours` are derived from (issue 54: the owner's hours are Mon-Fri 9 AM-6 PM).
 */
const OPENING_HOURS = { days: 'Mo-Fr', opens: '09:00', closes: '18:00' } as const satisfies BusinessHours;

/** The business's contact facts: the one place pages, structured data and the footer read them from. */
export const SITE = {
  name: SITE_NAME,
  shortName: 'Tri-Valley AI',
  tagline: 'AI chatbots and business automation for Danville, San Ramon, Walnut Creek and Pleasanton',
  phone: '(925) 555-0142',
  phoneHref: 'tel:+19255550142',
  email: 'hello@trivalleyai.com',
  address: {
    streetAddress: '115 Town and Country Dr',
    addressLocality: 'Danville',
    addressRegion: 'CA',
    postalCode: '94526',
    addressCountry: 'US',
  },
  /** Opening hours as a value; pages show `hours`, structured data `openingHoursSchema(openingHours)`. */
  openingHours: OPENING_HOURS,
  /** The opening hours as the pages show them: `Mon-Fri 9AM-6PM`. */
  hours: hoursText(OPENING_HOURS),
  offerCode: 'DANVILLE20',
  priceFrom: '$300/month',
  /** External scheduling pages, opened in a new tab. */
  bookingUrl: 'https://cal.com/trivalley-ai/consultation',
  calendarUrl: 'https://calendly.com/trivalley-ai/30min',
  towns: [
    { name: 'Danville', path: '/local-services/danville-ai-automation' },
    { name: 'San Ramon', path: '/local-services/san-ramon-business-automation' },
    { name: 'Walnut Creek', path: '/local-services/walnut-creek-ai-solutions' },
    { name: 'Pleasanton', path: '/local-services/pleasanton-automation-services' },
  ],
} as const;

/**
 * The public origin of canonical links and og:url: the server's PUBLIC_ORIGIN, which it writes on the page's `<html>`
 * (`data-site-origin`, api/src/site/render/document-html.ts), so the browser names the same site whatever host the
 * page was opened by (127.0.0.1 for localhost, the apex for www, a CDN's name). A page without it (the vite dev
 * server) uses the address it was opened at.
 */
export function siteOrigin(): string {
  if (typeof document !== 'undefined') {
    const written = document.documentElement.getAttribute(SITE_ORIGIN_ATTRIBUTE);
    if (written && /^https?:\/\/[^/?#\s]+$/i.test(written)) return written;
  }
  if (typeof window !== 'undefined') return window.location.origin;
  return 'http://localhost:3000';
}
