import type { PageMeta } from '@site/contracts/manifest';

export const homeMeta: PageMeta = {
  path: '/',
  title: 'Tri-Valley AI Automation | AI chatbots & business automation in Danville, San Ramon, Walnut Creek, Pleasanton',
  description:
    'Local AI chatbots, workflow automation and system integration for East Bay small businesses. Plans from $300/month, 20% off your first 3 months with DANVILLE20.',
  canonical: '/',
};
