import type { PageMeta } from '@site/contracts/manifest';
import { SITE } from '@site/ui';
import { localBusinessSchema, regionalSchema } from './local-business-schema';

// The search metadata of the town pages, apart from their copy (cities.ts): the route table needs every page's
// metadata up front, while a town page's copy loads with that page.

const danvilleDescription =
  'AI ordering bots, reservations and retail customer service for Danville restaurants and shops. 20% off 3 months with DANVILLE20.';
export const danvilleGeo = { latitude: 37.8216, longitude: -121.9999 };

const sanRamonDescription =
  'Workflow automation and AI assistants for San Ramon tech companies, retailers and service businesses around Bishop Ranch.';
const walnutCreekDescription =
  'AI customer service, inventory and ordering automation for downtown Walnut Creek boutiques and restaurants.';
const pleasantonDescription =
  'Production tracking, quality control and scheduling automation for Pleasanton manufacturers and service businesses.';

/** Each town page's metadata, by its slug (the page path's last segment). */
export const cityMeta = {
  'danville-ai-automation': {
    path: '/local-services/danville-ai-automation',
    title: 'AI Automation in Danville, CA | Tri-Valley AI Automation',
    description: danvilleDescription,
    canonical: '/local-services/danville-ai-automation',
    keywords: ['AI automation Danville', 'Danville restaurant ordering bot', 'Danville retail customer service AI'],
    jsonLd: [
      localBusinessSchema({ town: 'Danville', path: '/local-services/danville-ai-automation', description: danvilleDescription, geo: danvilleGeo }),
      regionalSchema(danvilleGeo, '/local-services'),
    ],
  },
  'san-ramon-business-automation': {
    path: '/local-services/san-ramon-business-automation',
    title: 'Business Automation in San Ramon, CA | Tri-Valley AI Automation',
    description: sanRamonDescription,
    canonical: '/local-services/san-ramon-business-automation',
    keywords: ['business automation San Ramon', 'Bishop Ranch workflow automation', 'San Ramon AI assistant'],
    jsonLd: localBusinessSchema({
      town: 'San Ramon',
      path: '/local-services/san-ramon-business-automation',
      description: sanRamonDescription,
      geo: { latitude: 37.78, longitude: -121.98 },
    }),
  },
  'walnut-creek-ai-solutions': {
    path: '/local-services/walnut-creek-ai-solutions',
    title: 'AI Solutions in Walnut Creek, CA | Tri-Valley AI Automation',
    description: walnutCreekDescription,
    canonical: '/local-services/walnut-creek-ai-solutions',
    keywords: ['AI solutions Walnut Creek', 'Walnut Creek retail inventory automation', 'Walnut Creek restaurant ordering AI'],
    jsonLd: localBusinessSchema({
      town: 'Walnut Creek',
      path: '/local-services/walnut-creek-ai-solutions',
      description: walnutCreekDescription,
      geo: { latitude: 37.91, longitude: -122.07 },
    }),
  },
  'pleasanton-automation-services': {
    path: '/local-services/pleasanton-automation-services',
    title: 'Automation Services in Pleasanton, CA | Tri-Valley AI Automation',
    description: pleasantonDescription,
    canonical: '/local-services/pleasanton-automation-services',
    keywords: ['automation services Pleasanton', 'Pleasanton manufacturing automation', 'Pleasanton service business scheduling'],
    jsonLd: localBusinessSchema({
      town: 'Pleasanton',
      path: '/local-services/pleasanton-automation-services',
      description: pleasantonDescription,
      geo: { latitude: 37.66, longitude: -121.87 },
    }),
  },
} satisfies Record<string, PageMeta>;

/** The town pages in the order of the /local-services index. */
export const cityRoutes = Object.entries(cityMeta).map(([slug, meta]) => ({ slug, meta: meta as PageMeta }));

export const localServicesMeta: PageMeta = {
  path: '/local-services',
  title: 'Local AI Automation Services | Danville, San Ramon, Walnut Creek, Pleasanton',
  description:
    'AI automation built for four East Bay towns: Danville, San Ramon, Walnut Creek and Pleasanton. Pick your town to see what we build there.',
  canonical: '/local-services',
  // The index of the four town pages, as a collection with the towns in the order of the page.
  jsonLd: {
    '@context': 'https://schema.org',
    '@type': 'CollectionPage',
    name: 'Local AI Automation Services',
    url: '/local-services',
    about: { '@type': 'ProfessionalService', name: SITE.name, telephone: SITE.phone, email: SITE.email },
    mainEntity: {
      '@type': 'ItemList',
      itemListElement: cityRoutes.map(({ meta }, i) => ({ '@type': 'ListItem', position: i + 1, name: meta.title, url: meta.path })),
    },
  },
};
