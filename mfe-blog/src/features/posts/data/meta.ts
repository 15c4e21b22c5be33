import { BLOG_ROUTES } from '@site/contracts/blog-routes';
import type { PageMeta } from '@site/contracts/manifest';

export const blogMeta: PageMeta = {
  path: BLOG_ROUTES.home,
  title: 'AI Automation Blog | Tri-Valley AI Automation',
  description: 'Practical guides and local case studies on AI chatbots and business automation for East Bay restaurants, retailers and service businesses.',
  canonical: BLOG_ROUTES.home,
  jsonLd: {
    '@context': 'https://schema.org',
    '@type': 'Blog',
    name: 'AI Automation Blog',
    description: 'Practical guides and local case studies on AI chatbots and business automation for East Bay restaurants, retailers and service businesses.',
    url: BLOG_ROUTES.home,
    publisher: { '@type': 'Organization', name: 'Tri-Valley AI Automation', url: '/' },
  },
};
