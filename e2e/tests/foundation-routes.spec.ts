import { expect, expectHydrated, test } from '../support/test';
import { HYDRATION_ROUTES } from '../support/hydration-routes';
import { builtManifests } from '../support/manifests';
import { watchRequests } from '../support/network';
import { watchPageErrors } from '../support/page-errors';

// The spec's route table (section 2), with sample values for its parameters.
const ROUTES = [
  '/',
  '/local-services',
  '/local-services/danville-ai-automation',
  '/local-services/san-ramon-business-automation',
  '/local-services/walnut-creek-ai-solutions',
  '/local-services/pleasanton-automation-services',
  '/case-studies/danville-restaurant-automation',
  '/case-studies/san-ramon-tech-automation',
  '/case-studies/walnut-creek-retail-automation',
  '/case-studies/pleasanton-manufacturing-automation',
  '/case-studies/restaurant-automation',
  '/restaurant-order-bot',
  '/retail-customer-service',
  '/service-business-automation',
  '/roi-calculator',
  '/website-analysis',
  '/free-analysis',
  '/blog',
  '/blog/category/ai-automation',
  '/admin',
  '/admin/dashboard',
  '/admin/alerts',
  '/admin/posts',
  '/admin/posts/create',
];

/**
 * The pages ssr-hydration.spec.ts opens are checked there, with everything this file checks (200, the manifest's title,
 * their own h1, hydrated, every request answered, no error): loading them here again would add time and nothing else.
 */
const CHECKED_BY_HYDRATION = new Set(HYDRATION_ROUTES.map((r) => r.path));

const titles = new Map(builtManifests().flatMap((m) => (m.pages ?? []).map((p) => [p.path, p.title] as const)));

for (const route of ROUTES.filter((r) => !CHECKED_BY_HYDRATION.has(r))) {
  test(`${route} answers 200 and shows its page`, async ({ page }) => {
    const errors = watchPageErrors(page);
    const requests = watchRequests(page);
    const res = await page.goto(route);
    expect(res?.status()).toBe(200);
    const h1 = page.getByRole('heading', { level: 1 }).first();
    await expect(h1).toBeVisible();
    await expect(h1).not.toHaveText(/Oops! Page not found|temporarily unavailable|Something went wrong/);
    // A visitor without an admin session meets the password gate on every admin route (admin.spec.ts logs in).
    const gated = route.startsWith('/admin');
    if (gated) await expect(h1).toHaveText('Admin Access');
    const title = titles.get(gated ? '/admin' : route);
    if (title) expect(await page.title()).toBe(title);
    // Live, and every request it made while loading and hydrating answered: a failure among them is in `errors`.
    await expectHydrated(page);
    await requests.answered();
    errors.expectClean();
  });
}

test('/free-analysis and /website-analysis show the same tool', async ({ page }) => {
  for (const route of ['/free-analysis', '/website-analysis']) {
    await page.goto(route);
    await expect(page.locator('#analysis-tool')).toBeVisible();
  }
});

test('the served HTML already carries each page’s title, description and canonical link', async ({ request }) => {
  for (const manifest of builtManifests()) {
    for (const meta of manifest.pages ?? []) {
      const html = await (await request.get(meta.path)).text();
      expect(html).toContain(`<title>${meta.title.replace(/&/g, '&amp;')}</title>`);
      expect(html).toMatch(/<meta name="description" content="[^"]+"/);
      expect(html).toMatch(/<link rel="canonical" href="http:\/\/127\.0\.0\.1:\d+\//);
    }
  }
});
