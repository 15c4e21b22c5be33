import { SITE_NAME } from '@site/contracts/site';

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

/** The public origin used in canonical links; the server sets it from PUBLIC_ORIGIN. */
export function siteOrigin(): string {
  if (typeof window !== 'undefined') return window.location.origin;
  return 'http://localhost:3000';
}
