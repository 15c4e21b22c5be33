import type { PageMeta } from '@site/contracts/manifest';

const description =
  'Free growth scorecard for East Bay small businesses: visibility, reputation, profile quality, website trust, content and competition, plus an AI readiness assessment.';

/** The free tool as a web application offered by the business (URLs are site paths; the server makes them absolute). */
const toolJsonLd = (name: string, path: string) => ({
  '@context': 'https://schema.org',
  '@type': 'WebApplication',
  name,
  description,
  url: path,
  applicationCategory: 'BusinessApplication',
  operatingSystem: 'Any',
  offers: { '@type': 'Offer', price: '0', priceCurrency: 'USD' },
  provider: { '@type': 'ProfessionalService', name: 'Tri-Valley AI Automation', url: '/' },
});

export const analysisPages: PageMeta[] = [
  {
    path: '/free-analysis',
    title: 'Free Business Analysis | Tri-Valley AI Automation',
    description,
    canonical: '/free-analysis',
    jsonLd: toolJsonLd('Free Business Growth Scorecard', '/free-analysis'),
  },
  {
    path: '/website-analysis',
    title: 'Free Website & Business Analysis | Tri-Valley AI Automation',
    description,
    canonical: '/website-analysis',
    jsonLd: toolJsonLd('Free Website & Business Analysis', '/website-analysis'),
  },
];
