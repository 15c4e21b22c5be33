/** The post ssr-hydration.spec.ts opens by its path. */
export const HYDRATION_POST = {
  path: '/blog/how-ai-chatbots-are-transforming-customer-service-for-local-businesses',
  h1: 'How AI Chatbots Are Transforming Customer Service for Local Businesses',
};

/**
 * The pages ssr-hydration.spec.ts opens and checks in full: 200, the manifest's title, its own h1 and text, hydrated
 * with every request answered and no error or warning. foundation-routes.spec.ts checks the rest of the route table
 * the same way and leaves these out, so each page is loaded for that check once.
 */
export const HYDRATION_ROUTES: { path: string; h1: RegExp | string; text: RegExp }[] = [
  { path: '/', h1: /pays for itself/, text: /Tri-Valley/ },
  { path: '/local-services', h1: 'Local AI Automation Services', text: /Danville/ },
  { path: '/local-services/danville-ai-automation', h1: /Danville/, text: /Danville/ },
  { path: '/case-studies/danville-restaurant-automation', h1: /Restaurant Automation Solution Design/, text: /restaurant/i },
  { path: '/case-studies/restaurant-automation', h1: /Restaurant Automation Case Study/, text: /restaurant/i },
  { path: '/roi-calculator', h1: /ROI Calculator/, text: /hours/i },
  { path: '/blog', h1: 'AI Automation Blog', text: /Showing \d+ of \d+ articles/ },
  { path: HYDRATION_POST.path, h1: HYDRATION_POST.h1, text: /chatbot/i },
  { path: '/blog/category/ai-automation', h1: 'AI Automation', text: /Back to Blog/ },
  { path: '/free-analysis', h1: /Free Business Growth Scorecard/, text: /business/i },
  { path: '/website-analysis', h1: /Free Website & Business Analysis/, text: /website/i },
];
