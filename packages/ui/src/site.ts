import { SITE_NAME, SITE_ORIGIN_ATTRIBUTE } from '@site/contracts/site';

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
  hours: 'Mon-Fri 9AM-6PM',
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
