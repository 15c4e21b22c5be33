import { expect, test } from '../support/test';
import { watchPageErrors } from '../support/page-errors';
import { scrollPageTo } from '../support/scroll';
import { eventsOf } from '../support/tracking';

test.describe('home page', () => {
  test('shows every section, and its links lead where they say', async ({ page }) => {
    const errors = watchPageErrors(page);
    await page.goto('/');
    await expect(page.getByRole('heading', { level: 1 })).toContainText('AI automation that pays for itself');
    for (const id of ['home', 'services', 'industry-insights', 'projects', 'testimonials', 'roi-calculator', 'contact']) {
      await expect(page.locator(`section#${id}`)).toBeVisible();
    }

    const services = page.locator('#services');
    for (const title of ['AI Chatbots', 'Workflow Automation', 'System Integration', 'Business AI Tools']) {
      await expect(services.getByRole('heading', { name: title })).toBeVisible();
    }
    await expect(services.getByText('From $300/month')).toHaveCount(4);
    await expect(services.getByText('DANVILLE20')).toBeVisible();

    const insights = page.locator('#industry-insights').getByRole('link', { name: /Explore Solution Design/ });
    await expect(insights).toHaveCount(3);
    expect(await insights.evaluateAll((links) => links.map((a) => a.getAttribute('href')))).toEqual([
      '/case-studies/danville-restaurant-automation',
      '/case-studies/walnut-creek-retail-automation',
      '/case-studies/pleasanton-manufacturing-automation',
    ]);

    const projects = page.locator('#projects');
    await expect(projects.getByText('Featured project')).toBeVisible();
    const viewProject = projects.getByRole('link', { name: /View Project/ });
    expect(await viewProject.evaluateAll((links) => links.map((a) => a.getAttribute('href')))).toEqual([
      '/restaurant-order-bot',
      '/retail-customer-service',
      '/service-business-automation',
    ]);
    for (const title of ['Local Restaurant Order Bot', 'Retail Store Customer Service', 'Service Business Automation']) {
      await expect(projects.getByRole('heading', { name: title })).toBeVisible();
    }

    const testimonials = page.locator('#testimonials');
    for (const claim of ['300% efficiency gain in 3 months', 'Sales up 40%', 'Costs down 35%', 'Production efficiency up 50%']) {
      await expect(testimonials.getByText(claim, { exact: true })).toBeVisible();
    }

    const contact = page.locator('#contact');
    await expect(contact.getByText('Mon-Fri 9AM-6PM')).toBeVisible();
    for (const name of [/Book a Free Consultation/, /View Our Calendar/]) {
      const link = contact.getByRole('link', { name });
      await expect(link).toHaveAttribute('target', '_blank');
      await expect(link).toHaveAttribute('rel', 'noopener noreferrer');
      await expect(link).toHaveAttribute('href', /^https:\/\//);
    }
    errors.expectClean();
  });

  test('a View Project link opens its page inside the app', async ({ page }) => {
    await page.goto('/');
    await page.locator('#projects').getByRole('link', { name: /View Project.*Local Restaurant Order Bot/ }).click();
    await expect(page).toHaveURL(/\/restaurant-order-bot$/);
  });

  test('Schedule Free Consultation scrolls to the contact form; Calculate Your ROI opens the calculator page', async ({ page }) => {
    await page.goto('/');
    await page.getByRole('button', { name: 'Schedule Free Consultation' }).click();
    await expect(page.getByRole('form', { name: 'Contact form' })).toBeInViewport();
    await page.goto('/');
    await page.getByRole('link', { name: 'Calculate Your ROI' }).click();
    await expect(page).toHaveURL(/\/roi-calculator$/);
    await expect(page.getByRole('heading', { level: 1, name: 'AI Automation ROI Calculator' })).toBeVisible();
  });

  test('the local-discount button scrolls to contact and prefills the offer', async ({ page }) => {
    await page.goto('/');
    await page.getByRole('button', { name: 'Claim DANVILLE20 Discount' }).click();
    const form = page.getByRole('form', { name: 'Contact form' });
    await expect(form.getByLabel('Subject (optional)')).toHaveValue(/DANVILLE20/);
    await expect(form.getByLabel('Message')).toHaveValue(/claim the DANVILLE20 local discount/);
    await expect(form.getByLabel('Subject (optional)')).toBeInViewport();
  });

  test('records scroll depth once per threshold', async ({ page }) => {
    const events: { name: string; props?: Record<string, unknown> }[] = [];
    await page.route('**/api/events', async (route) => {
      // Thresholds crossed in one moment (75 and 90 in one scroll to the end) arrive in one batch.
      events.push(...eventsOf(route.request()));
      await route.fulfill({ status: 202, json: { accepted: true } });
    });
    await page.goto('/');
    await expect(page.locator('#contact')).toBeAttached();
    const depths = () => events.filter((e) => e.name === 'scroll_depth').map((e) => e.props?.depth);
    // Each scroll comes to rest, and the depths it reaches are recorded, before the next: back up to 30 % sends nothing
    // again (a second 25 would stay in the list and fail the last step).
    for (const [y, sent] of [
      [0.3, [25]],
      [0.6, [25, 50]],
      [0.3, [25, 50]],
      [1, [25, 50, 75, 90]],
    ] as const) {
      await scrollPageTo(page, { fraction: y });
      await expect.poll(depths).toEqual(sent);
    }
  });
});
