import { expect, test, type Locator, type Page } from '../support/test';
import { adminLogin, adminSend } from '../support/admin-api';
import { expectNoSeriousA11yViolations } from '../support/axe';
import { watchPageErrors } from '../support/page-errors';
import { scrollEndAfter, scrollPageTo } from '../support/scroll';

const ILLUSTRATIVE = 'Illustrative scenarios: the figures show the kind of change to expect, not audited results.';

/**
 * Clicks where the element is, as a person would. Playwright's own click first scrolls the target into view,
 * which for a link in the sticky header moves the page and would hide what these tests measure.
 */
async function clickInPlace(page: Page, target: Locator): Promise<void> {
  const box = await target.boundingBox();
  if (!box) throw new Error('element not visible');
  await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
}

const headerBottom = (page: Page) => page.locator('header').evaluate((h) => h.getBoundingClientRect().bottom);
const topOf = (page: Page, id: string) => page.locator(`#${id}`).evaluate((el) => el.getBoundingClientRect().top);

test.describe('phone menu', () => {
  test.use({ viewport: { width: 390, height: 844 } });

  const cases: Array<{ label: string; role: 'link' | 'button'; section: string }> = [
    { label: 'Services', role: 'link', section: 'services' },
    { label: 'Contact', role: 'link', section: 'contact' },
    { label: 'Pricing', role: 'button', section: 'services' },
    { label: 'Free Consultation', role: 'button', section: 'contact' },
    { label: 'Home', role: 'link', section: 'home' },
  ];
  for (const c of cases) {
    test(`${c.label} lands with the ${c.section} section right under the header`, async ({ page }) => {
      await page.goto('/');
      await expect(page.locator('#contact')).toBeVisible();
      // Start away from the target so the menu really has to scroll.
      await scrollPageTo(page, c.section === 'contact' ? 0 : { fraction: 1 });
      await page.getByRole('button', { name: 'Open menu' }).click();
      const menu = page.locator('#mobile-menu');
      await scrollEndAfter(page, () => menu.getByRole(c.role, { name: c.label, exact: true }).click(), { atClick: true });
      await expect(menu).toBeHidden();
      const delta = (await topOf(page, c.section)) - (await headerBottom(page));
      expect(Math.abs(delta), `section top ${delta}px from the header`).toBeLessThanOrEqual(8);
    });
  }
});

test.describe('scroll between pages', () => {
  test('a new page opens at its top; Back and Forward restore where the visitor was', async ({ page }) => {
    const errors = watchPageErrors(page);
    await page.goto('/');
    await expect(page.locator('#contact')).toBeVisible();
    const left = await scrollPageTo(page, 2400);
    expect(left).toBeGreaterThan(2000);

    const opened = await scrollEndAfter(page, () => clickInPlace(page, page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Blog' })), {
      atClick: true,
    });
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await expect(page).toHaveURL(/\/blog$/);
    expect(opened).toBe(0);

    await scrollPageTo(page, 300);
    const back = await scrollEndAfter(page, () => page.goBack());
    await expect(page).toHaveURL(/\/$/);
    expect(Math.abs(back - left)).toBeLessThanOrEqual(20);

    await page.goForward();
    await expect(page).toHaveURL(/\/blog$/);
    await expect.poll(() => page.evaluate(() => Math.round(window.scrollY))).toBe(300);
    errors.expectClean();
  });

  test('Free Analysis and city-to-city links open at the top too', async ({ page }) => {
    await page.goto('/');
    await expect(page.locator('#contact')).toBeVisible();
    await scrollPageTo(page, 2000);
    const analysisTop = await scrollEndAfter(
      page,
      () => clickInPlace(page, page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Free Analysis' })),
      { atClick: true },
    );
    await expect(page).toHaveURL(/\/free-analysis$/);
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    expect(analysisTop).toBe(0);

    await page.goto('/local-services/danville-ai-automation');
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await scrollPageTo(page, 1500);
    const nav = page.getByRole('navigation', { name: 'Main' });
    await clickInPlace(page, nav.getByRole('button', { name: 'Local Services' }));
    const cityTop = await scrollEndAfter(page, () => clickInPlace(page, nav.getByRole('link', { name: 'San Ramon' })), { atClick: true });
    await expect(page).toHaveURL(/san-ramon-business-automation$/);
    await expect(page.getByRole('heading', { level: 1 })).toContainText('San Ramon');
    expect(cityTop).toBe(0);
  });
});

test.describe('header', () => {
  for (const width of [1280, 1366, 1440, 1536]) {
    test(`shows the business name beside the navigation at ${width} px`, async ({ page }) => {
      await page.setViewportSize({ width, height: 800 });
      await page.goto('/');
      const home = page.getByRole('link', { name: /^Tri-Valley AI Automation\s*,\s*home$/ });
      await expect(home.getByText('Tri-Valley AI', { exact: true })).toBeVisible();
      await expect(home.getByText('Automation', { exact: true })).toBeVisible();
      await expect(page.getByRole('navigation', { name: 'Main' })).toBeVisible();
      const overflow = await page.locator('header > div').evaluate((c) => c.scrollWidth - c.clientWidth);
      expect(overflow).toBeLessThanOrEqual(0);
    });
  }

  test('the name stays on a phone', async ({ page }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto('/');
    await expect(page.getByRole('link', { name: /^Tri-Valley AI Automation\s*,\s*home$/ }).getByText('Tri-Valley AI', { exact: true })).toBeVisible();
  });
});

test('the not-found page names the site in its tab title', async ({ page }) => {
  await page.goto('/no-such-page');
  await expect(page.getByRole('heading', { name: 'Oops! Page not found' })).toBeVisible();
  await expect(page).toHaveTitle('Page not found | Tri-Valley AI Automation');
});

test.describe('ROI calculator', () => {
  test('explains the result instead of leaving an empty box, and caps inputs with a message', async ({ page }) => {
    await page.goto('/roi-calculator');
    const placeholder = page.getByText('Your results appear here');
    await expect(placeholder).toBeVisible();
    const box = await placeholder.locator('xpath=ancestor::div[contains(@class,"border-dashed")][1]').boundingBox();
    expect(box!.height).toBeLessThan(400);

    await page.getByLabel('Cost per hour').fill('5000');
    const message = page.getByText('Enter at most $500. The calculation uses $500.');
    await expect(message).toBeVisible();
    await expect(page.getByLabel('Cost per hour')).toHaveAttribute('aria-invalid', 'true');
    await page.getByLabel('Cost per hour').fill('25');
    await expect(message).toHaveCount(0);

    await page.getByRole('button', { name: 'Calculate ROI' }).click();
    // The result is drawn after the click: wait for it (a snapshot taken at once can find no <dt> yet).
    const labels = page.locator('dt');
    await expect(labels.nth(0)).toHaveText('Monthly savings');
    await expect(labels.nth(1)).toHaveText('Annual savings');
    await expect(page.getByText(/What ROI means here/)).toBeVisible();
    await expect(page.getByText(/What payback means here/)).toBeVisible();
  });
});

test.describe('contact form', () => {
  test('explains missing and invalid fields inline, tied to the fields for screen readers', async ({ page }) => {
    await page.goto('/#contact');
    const form = page.getByRole('form', { name: 'Contact form' });
    await form.getByLabel('Email').fill('not-an-email');
    await form.getByRole('button', { name: 'Send Message' }).click();
    for (const [label, text] of [
      ['Name', 'Name is required'],
      ['Email', 'Enter a valid email address'],
      ['Message', 'Message is required'],
    ] as const) {
      const message = form.getByText(text);
      await expect(message).toBeVisible();
      const field = form.getByLabel(label, { exact: true });
      await expect(field).toHaveAttribute('aria-invalid', 'true');
      const id = await message.getAttribute('id');
      expect(await field.getAttribute('aria-describedby')).toContain(id!);
    }
    await form.getByLabel('Name', { exact: true }).fill('Jordan');
    await form.getByLabel('Email').fill('jordan@example.com');
    await form.getByLabel('Message', { exact: true }).fill('Call me');
    await form.getByRole('button', { name: 'Send Message' }).click();
    await expect(form.getByText('Please add a little more detail (at least 10 characters)')).toBeVisible();
    await expectNoSeriousA11yViolations(page, 'contact form with errors');
  });
});

test('outcome figures carry the same illustrative label everywhere', async ({ page }) => {
  await page.goto('/');
  for (const id of ['industry-insights', 'projects', 'testimonials']) {
    await expect(page.locator(`#${id}`).getByText(ILLUSTRATIVE, { exact: false })).toBeVisible();
  }
  await expect(page.getByText("Automation we've built")).toHaveCount(0);
  for (const path of ['/restaurant-order-bot', '/local-services/danville-ai-automation']) {
    await page.goto(path);
    await expect(page.getByText(ILLUSTRATIVE, { exact: false }).first()).toBeVisible();
  }
});

test.describe('blog', () => {
  test('a category page is headed by the category\'s real name', async ({ page }) => {
    await page.goto('/blog/category/how-to-guides');
    await expect(page.getByRole('heading', { level: 1, name: 'How-To Guides' })).toBeVisible();
    await page.goto('/blog/category/industry-insights');
    await expect(page.getByRole('heading', { level: 1, name: 'Industry Insights' })).toBeVisible();
  });

  test('cards of different categories show different designed images', async ({ page }) => {
    await page.goto('/blog');
    // The seeded posts have no image of their own (other spec files may add posts that do).
    const illustrations = page.getByRole('article').locator('img[src*="/mfe/blog/categories/"]');
    await expect(illustrations.first()).toBeVisible();
    const sources = await illustrations.evaluateAll((imgs) => imgs.map((i) => (i as HTMLImageElement).getAttribute('src')));
    expect(new Set(sources).size).toBeGreaterThanOrEqual(3);
    // Every illustration really loads (a broken one would fall back to the placeholder). Cards lower down load lazily,
    // when scrolled to: how far down depends on the posts other spec files add.
    for (const illustration of await illustrations.all()) {
      await illustration.scrollIntoViewIfNeeded();
      await expect.poll(() => illustration.evaluate((i) => (i as HTMLImageElement).naturalWidth > 0)).toBe(true);
    }
  });

  test('a link whose unsafe address was removed reads as plain text, not a dead link', async ({ page, request }) => {
    await adminLogin(request);
    const created = await adminSend<{ id: string; slug: string }>(request, 'POST', '/api/admin/posts', {
      title: 'Links that lead nowhere are gone',
      excerpt: 'A post whose body held a javascript: link, written through the admin API.',
      content:
        '<p>Read <a href="javascript:alert(1)">our dangerous guide</a> and <a href="https://example.com/">a safe page</a>. ' +
        'This paragraph is long enough to pass the content rule of one hundred characters for a post.</p>',
      author: 'Test Author',
      category: 'How-To Guides',
      keywords: [],
      metaDescription: 'A post used by the browser tests to check that unsafe links become plain text.',
    });
    expect(created.status).toBe(201);
    const id = created.body.id;
    expect((await adminSend(request, 'POST', `/api/admin/posts/${id}/publish`)).status).toBe(200);
    await page.goto(`/blog/${created.body.slug}`);
    const article = page.getByRole('article');
    await expect(article.getByText('our dangerous guide')).toBeVisible();
    await expect(article.getByRole('link', { name: 'our dangerous guide' })).toHaveCount(0);
    await expect(article.getByRole('link', { name: 'a safe page' })).toHaveAttribute('href', 'https://example.com/');
    // Leave the blog as the other spec files expect it (they count its posts).
    expect((await adminSend(request, 'DELETE', `/api/admin/posts/${id}`)).status).toBe(204);
  });
});
