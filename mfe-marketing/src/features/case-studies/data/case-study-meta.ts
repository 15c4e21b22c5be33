import type { PageMeta } from '@site/contracts/manifest';
import { SITE } from '@site/ui';

// The case-study pages' search metadata, apart from their copy (case-studies.ts): the route table needs every page's
// metadata up front, while a page's copy loads with that page.

/** Each case-study page's title, description and path, and the day it was published (`updated`: last changed), by the study's key. */
const caseStudyBasics = {
  'restaurant-order-bot': {
    path: '/restaurant-order-bot',
    title: 'Restaurant Order Bot Case Study | Tri-Valley AI Automation',
    description: 'A messaging-app ordering bot for a local restaurant: 35% revenue increase, 60% fewer phone calls, orders in under 30 seconds.',
    canonical: '/restaurant-order-bot',
    published: '2026-11-22',
  },
  'retail-customer-service': {
    path: '/retail-customer-service',
    title: 'Retail Customer Service Assistant Case Study | Tri-Valley AI Automation',
    description: 'An AI customer-service assistant for a local retail store: 80% of questions resolved automatically and a 45% sales increase.',
    canonical: '/retail-customer-service',
    published: '2026-11-22',
  },
  'service-business-automation': {
    path: '/service-business-automation',
    title: 'Service Business Automation Suite | Tri-Valley AI Automation',
    description: 'Scheduling, reminders, invoicing and follow-ups on autopilot: 15 hours saved per week, 40% cost reduction, 25% revenue growth.',
    canonical: '/service-business-automation',
    published: '2026-11-22',
  },
  'restaurant-automation': {
    path: '/case-studies/restaurant-automation',
    title: 'Local Restaurant Automation Case Study | Tri-Valley AI Automation',
    description: 'How a local restaurant went from 45 to 61 orders a day and from 80 to 32 phone calls with AI ordering: 99.2% accuracy, $18,000 saved.',
    canonical: '/case-studies/restaurant-automation',
    published: '2026-11-22',
  },
} satisfies Record<string, Pick<PageMeta, 'path' | 'title' | 'description' | 'canonical'> & ArticleDates>;

/** ISO dates (YYYY-MM-DD) of a case study: Google's Article guidelines ask for the publication date. */
type ArticleDates = { published: string; updated?: string };

/**
 * A case study's picture (its headline and figures, 1200x630 JPEG, in this remote's `public/case-studies/`): the
 * Article's `image`, which Google lists for Article rich results, and the page's link-preview image.
 */
export const caseStudyImage = (key: string) => `/mfe/marketing/case-studies/${key}.jpg`;
export const CASE_STUDY_IMAGE_SIZE = { width: 1200, height: 630 } as const;

/** A case study's structured data: an article by the business (author and publisher) about one client's project. */
function caseStudySchema(meta: { path: string; title: string; description: string; image: string } & ArticleDates) {
  const publisher = { '@type': 'Organization', name: SITE.name, url: '/', logo: '/favicon.svg' };
  return {
    '@context': 'https://schema.org',
    '@type': 'Article',
    headline: meta.title.replace(/ \| .*$/, ''),
    description: meta.description,
    url: meta.path,
    mainEntityOfPage: meta.path,
    image: [meta.image],
    datePublished: meta.published,
    dateModified: meta.updated ?? meta.published,
    articleSection: 'Case Studies',
    author: publisher,
    publisher,
    about: { '@type': 'Service', serviceType: 'AI Automation', provider: { '@type': 'ProfessionalService', name: SITE.name, telephone: SITE.phone } },
  };
}

/** Each case-study page's metadata, by the study's key. */
export const caseStudyMeta = Object.fromEntries(
  Object.entries(caseStudyBasics).map(([key, entry]): [string, PageMeta] => {
    const { published, updated, ...basics }: typeof entry & ArticleDates = entry;
    const image = caseStudyImage(key);
    const meta: PageMeta = { ...basics, image, imageWidth: CASE_STUDY_IMAGE_SIZE.width, imageHeight: CASE_STUDY_IMAGE_SIZE.height };
    return [key, { ...meta, jsonLd: caseStudySchema({ ...basics, image, published, updated }) }];
  }),
) as Record<keyof typeof caseStudyBasics, PageMeta>;

/** The case-study pages, in the order of the studies. */
export const caseStudyRoutes = Object.entries(caseStudyMeta).map(([key, meta]) => ({ key, meta }));
