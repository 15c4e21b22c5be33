import type { PageMeta } from '@site/contracts/manifest';

export const roiMeta: PageMeta = {
  path: '/roi-calculator',
  title: 'Free AI Automation ROI Calculator | Tri-Valley AI Automation',
  description: 'Estimate the hours and dollars AI automation can save your business each month and year. Free, instant, no sign-up.',
  canonical: '/roi-calculator',
  keywords: ['AI automation ROI calculator', 'business automation savings', 'small business ROI'],
  jsonLd: {
    '@context': 'https://schema.org',
    '@type': 'WebApplication',
    name: 'AI Automation ROI Calculator',
    url: '/roi-calculator',
    applicationCategory: 'BusinessApplication',
    operatingSystem: 'Any',
    offers: { '@type': 'Offer', price: '0', priceCurrency: 'USD' },
  },
};
