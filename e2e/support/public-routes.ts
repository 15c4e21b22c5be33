import { expect, type Page } from '@playwright/test';
import { expectHydrated } from './test';

/** Every public route (one of each kind of dynamic page), with the h1 that says its content is there. */
export const PUBLIC_ROUTES: { path: string; h1: RegExp }[] = [
  { path: '/', h1: /pays for itself/ },
  { path: '/local-services', h1: /Local AI Automation Services/ },
  { path: '/local-services/danville-ai-automation', h1: /Danville/ },
  { path: '/local-services/san-ramon-business-automation', h1: /San Ramon/ },
  { path: '/local-services/walnut-creek-ai-solutions', h1: /Walnut Creek/ },
  { path: '/local-services/pleasanton-automation-services', h1: /Pleasanton/ },
  { path: '/case-studies/danville-restaurant-automation', h1: /Restaurant Automation Solution Design/ },
  { path: '/case-studies/san-ramon-tech-automation', h1: /Tech Company Automation Solution Design/ },
  { path: '/case-studies/walnut-creek-retail-automation', h1: /Retail Automation Solution Design/ },
  { path: '/case-studies/pleasanton-manufacturing-automation', h1: /Manufacturing Automation Solution Design/ },
  { path: '/case-studies/restaurant-automation', h1: /Restaurant Automation Case Study/ },
  { path: '/restaurant-order-bot', h1: /Local Restaurant Order Bot/ },
  { path: '/retail-customer-service', h1: /Retail Store Customer Service/ },
  { path: '/service-business-automation', h1: /Service Business Automation/ },
  { path: '/roi-calculator', h1: /ROI Calculator/ },
  { path: '/blog', h1: /AI Automation Blog/ },
  { path: '/blog/how-ai-chatbots-are-transforming-customer-service-for-local-businesses', h1: /How AI Chatbots Are Transforming/ },
  { path: '/blog/category/ai-automation', h1: /AI Automation/ },
  { path: '/free-analysis', h1: /Free Business Growth Scorecard/ },
  { path: '/website-analysis', h1: /Free Website & Business Analysis/ },
  { path: '/no-such-page-here', h1: /Page not found/ },
];

/**
 * Waits until the page's own content (its h1) is shown, everything its HTML loads has loaded (the `load` event), its
 * code has hydrated it (`live`; pass false for a page whose scripts the test refuses) and no animation runs.
 */
export async function settle(page: Page, h1: RegExp, { live = true } = {}): Promise<void> {
  await expect(page.getByRole('heading', { level: 1, name: h1 }).first()).toBeVisible({ timeout: 15_000 });
  await page.waitForLoadState('load');
  if (live) await expectHydrated(page, 15_000);
  await page.evaluate(() => document.fonts.ready.then(() => Promise.all(document.getAnimations().map((a) => a.finished.catch(() => undefined)))));
}
