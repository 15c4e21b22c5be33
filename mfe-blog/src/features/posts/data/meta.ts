import type { PageMeta } from '@site/contracts/manifest';

export const blogMeta: PageMeta = {
  path: '/blog',
  title: 'AI Automation Blog | Tri-Valley AI Automation',
  description: 'Practical guides and local case studies on AI chatbots and business automation for East Bay restaurants, retailers and service businesses.',
  canonical: '/blog',
  jsonLd: {
    '@context': 'https://schema.org',
    '@type': 'Blog',
    name: 'AI Automation Blog',
    description: 'Practical guides and local case studies on AI chatbots and business automation for East Bay restaurants, retailers and service businesses.',
    url: '/blog',
    publisher: { '@type': 'Organization', name: 'Tri-Valley AI Automation', url: '/' },
  },
};
