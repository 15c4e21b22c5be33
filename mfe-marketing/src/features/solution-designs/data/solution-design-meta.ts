import type { PageMeta } from '@site/contracts/manifest';
import { SITE } from '@site/ui';

// What the route table needs of the solution-design pages (their metadata, and the facts it is made of), apart from
// their copy (solution-designs.ts), which loads with the page.

/** Town, industry, headline and search title/description of each design, by its slug. */
export const solutionDesignBasics = {
  'danville-restaurant-automation': {
    town: 'Danville',
    industry: 'Restaurant',
    headline: 'Restaurant Automation Solution Design for Danville',
    title: 'Danville Restaurant Automation Solution Design | Tri-Valley AI Automation',
    description: 'How we would automate ordering, reservations and follow-ups for a Danville restaurant: approach, phases and expected outcomes.',
  },
  'san-ramon-tech-automation': {
    town: 'San Ramon',
    industry: 'Tech',
    headline: 'Tech Company Automation Solution Design for San Ramon',
    title: 'San Ramon Tech Automation Solution Design | Tri-Valley AI Automation',
    description: 'A solution design for San Ramon tech teams: automated onboarding, support triage and deployment workflows, in three phases.',
  },
  'walnut-creek-retail-automation': {
    town: 'Walnut Creek',
    industry: 'Retail',
    headline: 'Retail Automation Solution Design for Walnut Creek',
    title: 'Walnut Creek Retail Automation Solution Design | Tri-Valley AI Automation',
    description: 'A solution design for Walnut Creek retailers: AI customer service, inventory sync and faster checkout, phased over weeks.',
  },
  'pleasanton-manufacturing-automation': {
    town: 'Pleasanton',
    industry: 'Manufacturing',
    headline: 'Manufacturing Automation Solution Design for Pleasanton',
    title: 'Pleasanton Manufacturing Automation Solution Design | Tri-Valley AI Automation',
    description: 'A solution design for Pleasanton manufacturers: production tracking, quality alerts and supplier workflows, in three phases.',
  },
} satisfies Record<string, { town: string; industry: string; headline: string; title: string; description: string }>;
export type SolutionDesignSlug = keyof typeof solutionDesignBasics;

function serviceSchema(d: { town: string; path: string; name: string; description: string }) {
  return {
    '@context': 'https://schema.org',
    '@type': 'Service',
    name: d.name,
    description: d.description,
    url: d.path,
    provider: { '@type': 'ProfessionalService', name: SITE.name, telephone: SITE.phone, email: SITE.email },
    areaServed: { '@type': 'City', name: `${d.town}, CA` },
    serviceType: 'AI Automation Solution Design',
    category: 'Business Process Automation',
  };
}

function designMeta(slug: SolutionDesignSlug): PageMeta {
  const d = solutionDesignBasics[slug];
  const path = `/case-studies/${slug}`;
  return {
    path,
    title: d.title,
    description: d.description,
    canonical: path,
    keywords: [`${d.town} ${d.industry.toLowerCase()} automation`, 'AI automation solution design', `${d.town} AI consultant`],
    jsonLd: serviceSchema({ town: d.town, path, name: d.headline, description: d.description }),
  };
}

/** Each design page's metadata, by its slug. */
export const solutionDesignMeta = Object.fromEntries(
  (Object.keys(solutionDesignBasics) as SolutionDesignSlug[]).map((slug) => [slug, designMeta(slug)]),
) as Record<SolutionDesignSlug, PageMeta>;

/** The design pages in the order of the towns. */
export const solutionDesignRoutes = (Object.keys(solutionDesignMeta) as SolutionDesignSlug[]).map((slug) => ({ slug, meta: solutionDesignMeta[slug] }));
