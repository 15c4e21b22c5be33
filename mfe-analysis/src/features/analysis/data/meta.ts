import type { PageMeta } from '@site/contracts/manifest';

const description =
  'Free growth scorecard for East Bay small businesses: visibility, reputation, profile quality, website trust, content and competition, plus an AI readiness assessment.';

export const analysisPages: PageMeta[] = [
  { path: '/free-analysis', title: 'Free Business Analysis | Tri-Valley AI Automation', description, canonical: '/free-analysis' },
  { path: '/website-analysis', title: 'Free Website & Business Analysis | Tri-Valley AI Automation', description, canonical: '/website-analysis' },
];
