import { expect, test } from '../support/test';
import { watchPageErrors } from '../support/page-errors';
import { nextEvent, readableTracking } from '../support/tracking';

const DESIGNS = [
  { town: 'Danville', path: '/case-studies/danville-restaurant-automation', townPath: '/local-services/danville-ai-automation', headline: 'Restaurant Automation Solution Design for Danville', specific: 'Phone orders during the dinner rush' },
  { town: 'San Ramon', path: '/case-studies/san-ramon-tech-automation', townPath: '/local-services/san-ramon-business-automation', headline: 'Tech Company Automation Solution Design for San Ramon', specific: 'Release day eats the sprint' },
  { town: 'Walnut Creek', path: '/case-studies/walnut-creek-retail-automation', townPath: '/local-services/walnut-creek-ai-solutions', headline: 'Retail Automation Solution Design for Walnut Creek', specific: 'Online and in-store stock disagree' },
  { town: 'Pleasanton', path: '/case-studies/pleasanton-manufacturing-automation', townPath: '/local-services/pleasanton-automation-services', headline: 'Manufacturing Automation Solution Design for Pleasanton', specific: 'Production data arrives a day late' },
];

test.beforeEach(async ({ page }) => readableTracking(page));

for (const d of DESIGNS) {
  test.describe(`${d.town} solution design`, () => {
    test('shows every section, and the back link returns to the town page', async ({ page }) => {
      const errors = watchPageErrors(page);
      await page.goto(d.path);
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(d.headline);
      for (const h of ['Our Approach', 'Challenges Being Addressed', 'Solution Design', 'Expected Outcomes', 'Phased Implementation Strategy'])
        await expect(page.getByRole('heading', { level: 2, name: h, exact: true })).toBeVisible();
      for (const h of ['Problem Analysis', 'Solution Design', 'Expected Outcomes', '1. Assessment & Planning', '2. Pilot Implementation', '3. Full Deployment', d.specific])
        await expect(page.getByRole('heading', { level: 3, name: h, exact: true })).toBeVisible();
      await expect(page.locator('#challenges').getByRole('heading', { level: 3 })).toHaveCount(2);
      await expect(page.locator('#solution-design').getByRole('heading', { level: 3 })).toHaveCount(2);
      await expect(page.locator('#expected-outcomes').getByRole('heading', { level: 3 })).toHaveCount(3);
      await page.getByRole('link', { name: `Back to ${d.town} Services` }).click();
      await expect(page).toHaveURL(new RegExp(`${d.townPath}$`));
      errors.expectClean();
    });

    test("'Get Similar Solution Design' and the closing band scroll to this page's contact card", async ({ page }) => {
      await page.goto(d.path);
      const contact = page.locator('#contact');
      await expect(contact).toHaveCount(1);
      const event = nextEvent(page, 'case_study_click');
      await page.getByRole('button', { name: 'Get Similar Solution Design' }).click();
      expect((await event).props).toMatchObject({ action: 'get_similar_solution_design' });
      await expect(contact).toBeInViewport();
      await expect(contact.getByRole('heading', { level: 2 })).toBeFocused();
      await expect(contact.getByRole('link', { name: '(925) 555-0142' })).toHaveAttribute('href', 'tel:+19255550142');
      await expect(contact.getByRole('link', { name: /Book a Free Consultation/ })).toHaveAttribute('target', '_blank');
      for (const label of ['Start Solution Design', 'Schedule Consultation']) {
        await page.evaluate(() => window.scrollTo(0, 0));
        await expect(contact).not.toBeInViewport();
        await page.getByRole('button', { name: label }).click();
        await expect(contact).toBeInViewport();
      }
      await expect(page).toHaveURL(new RegExp(`${d.path}$`));
    });

    test('serves Service JSON-LD in the HTML without JavaScript', async ({ request, baseURL }) => {
      const html = await (await request.get(d.path)).text();
      const ld = [...html.matchAll(/<script type="application\/ld\+json">([\s\S]*?)<\/script>/g)].map((m) => JSON.parse(m[1]!));
      expect(ld).toContainEqual(
        expect.objectContaining({
          name: d.headline,
          description: expect.any(String),
          url: `${baseURL}${d.path}`,
          provider: expect.objectContaining({ name: 'Tri-Valley AI Automation' }),
          areaServed: expect.objectContaining({ name: `${d.town}, CA` }),
          serviceType: 'AI Automation Solution Design',
          category: 'Business Process Automation',
        }),
      );
    });
  });
}

test("'Download Solution Overview' opens the print dialog on a print-ready overview", async ({ page }) => {
  await page.addInitScript(() => {
    const w = window as unknown as { __printed: string[] };
    w.__printed = [];
    window.print = () => void w.__printed.push(document.title);
  });
  await page.goto(DESIGNS[3]!.path);
  await page.getByRole('button', { name: 'Download Solution Overview' }).click();
  expect(await page.evaluate(() => (window as unknown as { __printed: string[] }).__printed)).toEqual([
    'Solution Overview - Manufacturing Automation Solution Design for Pleasanton',
  ]);
  await page.emulateMedia({ media: 'print' });
  // On paper: the overview only, no site header, no buttons.
  await expect(page.getByText('Tri-Valley AI Automation · Solution Overview')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Download Solution Overview' })).toBeHidden();
  await expect(page.getByRole('banner')).toBeHidden();
  await expect(page.getByText('Production data arrives a day late.')).toBeVisible();
  await page.emulateMedia({ media: 'screen' });
  await expect(page.getByText('Tri-Valley AI Automation · Solution Overview')).toBeHidden();
});
