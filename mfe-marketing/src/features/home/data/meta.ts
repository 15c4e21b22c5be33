import type { PageMeta } from '@site/contracts/manifest';
import { SITE } from '@site/ui';

const description =
  'Local AI chatbots, workflow automation and system integration for East Bay small businesses. Plans from $300/month, 20% off your first 3 months with DANVILLE20.';

export const homeMeta: PageMeta = {
  path: '/',
  title: 'Tri-Valley AI Automation | AI chatbots & business automation in Danville, San Ramon, Walnut Creek, Pleasanton',
  description,
  canonical: '/',
  // The business itself, for search engines and link previews (URLs are site paths; the server makes them absolute).
  jsonLd: {
    '@context': 'https://schema.org',
    '@type': 'ProfessionalService',
    name: SITE.name,
    description,
    url: '/',
    logo: '/favicon.svg',
    telephone: SITE.phone,
    email: SITE.email,
    address: { '@type': 'PostalAddress', ...SITE.address },
    areaServed: SITE.towns.map((t) => ({ '@type': 'City', name: `${t.name}, CA` })),
    priceRange: SITE.priceFrom,
  },
};
