/** The hero stats of /website-analysis (spec section 2, display copy). */
export const WEBSITE_HERO_STATS = [
  { value: '100+', label: 'Websites analyzed' },
  { value: '$10K', label: 'Potential savings found' },
  { value: '30s-60s', label: 'Analysis time' },
] as const;

/** 'Why Analyze Your Website?': what the website check looks at. */
export const WHY_ANALYZE = [
  {
    title: 'Performance',
    text: 'Slow pages lose customers before they see your menu or your prices. We time how fast your page answers and check its size and compression.',
  },
  {
    title: 'SEO',
    text: 'Titles, descriptions, headings, structured data and mobile readiness decide whether people nearby find you. We list what is there and what is missing.',
  },
  {
    title: 'Security',
    text: 'HTTPS and security headers protect your visitors and your reputation. We check what your site sends and grade it.',
  },
] as const;
