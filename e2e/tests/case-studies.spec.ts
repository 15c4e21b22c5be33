import { expect, test, type Page } from '../support/test';
import { watchPageErrors } from '../support/page-errors';

async function expectOnHomeSection(page: Page, id: string) {
  await expect(page).toHaveURL(new RegExp(`/#${id}$`));
  await expect(page.locator(`#${id}`)).toBeInViewport();
}

const PROJECTS = [
  { path: '/restaurant-order-bot', title: 'Local Restaurant Order Bot', figures: ['35%', '60%', '<30 s'] },
  { path: '/retail-customer-service', title: 'Retail Store Customer Service', figures: ['80%', '45%'] },
];

for (const p of PROJECTS) {
  test(`${p.path}: problem, 4 benefits, 8 features, illustrative results, and both calls to action`, async ({ page }) => {
    const errors = watchPageErrors(page);
    await page.goto(p.path);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(p.title);
    for (const f of p.figures) await expect(page.getByRole('banner').or(page.locator('article header')).getByText(f, { exact: true })).toBeVisible();
    await expect(page.locator('#benefits').getByRole('heading', { level: 3 })).toHaveCount(4);
    await expect(page.locator('#features ul > li')).toHaveCount(8);
    await expect(page.getByRole('heading', { name: 'Sample results (illustrative)' })).toBeVisible();
    await expect(page.getByRole('link', { name: '← Back to Home' })).toHaveAttribute('href', '/');
    await page.getByRole('link', { name: 'View All Services' }).click();
    await expectOnHomeSection(page, 'services');
    await page.goto(p.path);
    await page.getByRole('link', { name: 'Schedule Free Consultation' }).click();
    await expectOnHomeSection(page, 'contact');
    errors.expectClean();
  });
}

test('/service-business-automation: claims, process and links', async ({ page }) => {
  const errors = watchPageErrors(page);
  await page.goto('/service-business-automation');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Service Business Automation');
  for (const f of ['15 hours', '40%', '25%']) await expect(page.locator('#benefits').getByText(f, { exact: true })).toBeVisible();
  await expect(page.locator('#problems li')).toHaveCount(4);
  await expect(page.locator('#workflows li')).toHaveCount(3);
  for (const h of ['Business Operations', 'Analytics & Insights', 'Assessment', 'Setup', 'Training', 'Launch'])
    await expect(page.getByRole('heading', { level: 3, name: h, exact: true })).toBeVisible();
  await page.getByRole('link', { name: 'Get Free Business Analysis' }).first().click();
  await expect(page).toHaveURL(/\/roi-calculator$/);
  await page.goto('/service-business-automation');
  await page.getByRole('link', { name: 'View Automation Demo' }).first().click();
  await expectOnHomeSection(page, 'contact');
  errors.expectClean();
});

test('/case-studies/restaurant-automation: metrics, calls to action and the way back to testimonials', async ({ page }) => {
  const errors = watchPageErrors(page);
  await page.goto('/');
  await page.getByRole('contentinfo').getByRole('link', { name: /restaurant/i }).first().click();
  await expect(page).toHaveURL(/\/case-studies\/restaurant-automation$/);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Restaurant Automation Case Study');
  // The page starts at its top even though the footer link was clicked at the bottom of the home page.
  await expect.poll(() => page.evaluate(() => window.scrollY)).toBe(0);
  const metrics = page.locator('#metrics');
  for (const m of ['45 → 61', '80 → 32', '99.2%', '$18,000', '4.8/5']) await expect(metrics.getByText(m)).toBeVisible();
  for (const h of ['Overview', 'The Challenge', 'Implementation', 'Results']) await expect(page.getByRole('heading', { level: 2, name: h })).toBeVisible();
  await page.getByRole('link', { name: 'Schedule Free Consultation' }).click();
  await expectOnHomeSection(page, 'contact');
  await page.goBack();
  await page.getByRole('link', { name: '← Back to Testimonials' }).click();
  await expectOnHomeSection(page, 'testimonials');
  errors.expectClean();
});

test('on a phone every stat figure stays on one line inside its card ("<30 s" never leaves its "s" behind)', async ({ browser }) => {
  for (const width of [390, 360]) {
    const context = await browser.newContext({ viewport: { width, height: 844 } });
    const page = await context.newPage();
    for (const [path, selector] of [
      ['/restaurant-order-bot', 'header dl dd'],
      ['/retail-customer-service', 'header dl dd'],
      ['/service-business-automation', '#benefits li p:first-child'],
    ] as const) {
      await page.goto(path);
      const figures = page.locator(selector);
      await expect(figures.first()).toBeVisible();
      // Lines a figure's text occupies (its boxes' distinct tops), and how far it sticks out of its own box.
      const laidOut = await figures.evaluateAll((elements) =>
        elements.map((el) => {
          const range = document.createRange();
          range.selectNodeContents(el);
          const lines = new Set(Array.from(range.getClientRects(), (r) => Math.round(r.top))).size;
          return { figure: el.textContent?.replace(/\s/g, ' '), lines, overflow: el.scrollWidth - el.clientWidth };
        }),
      );
      expect(laidOut.length, path).toBeGreaterThanOrEqual(3);
      for (const f of laidOut) expect(f, `${path} at ${width}px`).toEqual({ figure: f.figure, lines: 1, overflow: 0 });
    }
    await context.close();
  }
});
