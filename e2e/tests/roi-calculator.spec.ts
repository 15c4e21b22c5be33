import { expect, test, type Locator, type Page } from '../support/test';
import { watchPageErrors } from '../support/page-errors';

const figure = (scope: Locator | Page, label: string) =>
  scope.locator('dt', { hasText: new RegExp(`^${label}$`) }).locator('xpath=following-sibling::dd[1]');

test.describe('ROI calculator', () => {
  test('page: results hidden until Calculate ROI, then the spec figures for the defaults', async ({ page }) => {
    const errors = watchPageErrors(page);
    await page.goto('/roi-calculator');
    await expect(page.getByRole('heading', { level: 1, name: 'AI Automation ROI Calculator' })).toBeVisible();
    await expect(page.getByText('Annual savings', { exact: true })).toHaveCount(0);
    await page.getByRole('button', { name: 'Calculate ROI' }).click();
    await expect(figure(page, 'Time on repetitive tasks')).toHaveText('220.8 hours/month');
    await expect(figure(page, 'Monthly cost of that time')).toHaveText('$5,521');
    await expect(figure(page, 'Monthly savings')).toHaveText('$3,865');
    await expect(figure(page, 'Annual savings')).toHaveText('$46,374');
    await expect(page.getByRole('img', { name: 'Monthly cost before and after automation' })).toBeVisible();
    await expect(page.getByText('drops from $5,521 before automation to $1,656 after')).toBeVisible();

    // Results stay shown and follow the inputs; without revenue, ROI and payback say what they need instead of
    // 'ROI 0%' and 'Payback period 0 years' (which reads as instant payback).
    await page.getByLabel('Monthly revenue').fill('0');
    await expect(figure(page, 'ROI and payback period')).toHaveText('Enter your monthly revenue to see ROI and payback');
    await expect(figure(page, 'Payback period')).toHaveCount(0);
    await page.getByLabel('Monthly revenue').fill('');
    await expect(figure(page, 'ROI and payback period')).toHaveText('Enter your monthly revenue to see ROI and payback');
    await expect(figure(page, 'Annual savings')).toHaveText('$46,374');
    await page.getByLabel('Monthly revenue').fill('50000');
    await expect(figure(page, 'ROI')).toHaveText('7.73%');
    errors.expectClean();
  });

  test('sliders work from the keyboard and move their number fields', async ({ page }) => {
    await page.goto('/roi-calculator');
    const slider = page.getByRole('slider', { name: 'Automation efficiency' });
    await slider.focus();
    await page.keyboard.press('ArrowRight');
    await expect(page.getByRole('spinbutton', { name: 'Automation efficiency (percent)' })).toHaveValue('75');
    await page.getByRole('spinbutton', { name: 'Customer service (hours per week)' }).fill('40');
    await expect(page.getByRole('slider', { name: 'Customer service' })).toHaveValue('40');
  });

  test("the sliders' tracks are drawn with the theme's tokens: dark on the dark theme's cards, not near-white", async ({ browser }) => {
    test.setTimeout(90_000);
    // What a person sees: pixels of the track, left of the thumb (filled) and right of it (empty), on the card.
    for (const [theme, tokens] of [
      ['light', { fill: '--primary', empty: '--border' }],
      ['dark', { fill: '--primary', empty: '--border' }],
    ] as const) {
      const context = await browser.newContext({ viewport: { width: 1366, height: 900 } });
      await context.addInitScript((t) => localStorage.setItem('theme', t), theme);
      const page = await context.newPage();
      await page.goto('/roi-calculator');
      // A page of a context of its own is not the fixture's: wait for hydration here, as the fixture does.
      await page.waitForFunction(() => document.documentElement.dataset.hydrated === 'true', undefined, { timeout: 20_000 });
      const slider = page.getByRole('slider', { name: 'Automation efficiency' });
      await expect(slider).toHaveValue('70');
      await expect(page.locator('html')).toHaveClass(theme === 'dark' ? /\bdark\b/ : /^(?!.*\bdark\b)/);
      const png = (await slider.screenshot({ animations: 'disabled' })).toString('base64');
      const sample = await page.evaluate(
        async ({ png, tokens }) => {
          const img = new Image();
          img.src = `data:image/png;base64,${png}`;
          await img.decode();
          const canvas = document.createElement('canvas');
          [canvas.width, canvas.height] = [img.width, img.height];
          const g = canvas.getContext('2d')!;
          g.drawImage(img, 0, 0);
          const y = Math.floor(img.height / 2);
          const at = (share: number) => [...g.getImageData(Math.floor(img.width * share), y, 1, 1).data.slice(0, 3)];
          // A token's colour as the browser resolves it, in the same [r, g, b] form.
          const token = (name: string) => {
            g.fillStyle = getComputedStyle(document.documentElement).getPropertyValue(name).trim();
            g.fillRect(0, 0, 1, 1);
            return [...g.getImageData(0, 0, 1, 1).data.slice(0, 3)];
          };
          return { fill: at(0.3), empty: at(0.9), fillToken: token(tokens.fill), emptyToken: token(tokens.empty) };
        },
        { png, tokens },
      );
      const close = (a: number[], b: number[]) => a.every((v, i) => Math.abs(v - b[i]!) <= 12);
      expect(close(sample.empty, sample.emptyToken), `${theme}: empty track ${sample.empty} vs ${tokens.empty} ${sample.emptyToken}`).toBe(true);
      expect(close(sample.fill, sample.fillToken), `${theme}: filled track ${sample.fill} vs ${tokens.fill} ${sample.fillToken}`).toBe(true);
      if (theme === 'dark') expect(Math.max(...sample.empty), `dark: empty track ${sample.empty} is near-white`).toBeLessThan(128);
      await context.close();
    }
  });

  test('the shareable link reopens the same scenario with its results', async ({ page, context }) => {
    await page.goto('/roi-calculator');
    await page.getByRole('spinbutton', { name: 'Customer service (hours per week)' }).fill('20');
    await page.getByLabel('Cost per hour').fill('40');
    await page.getByRole('button', { name: 'Calculate ROI' }).click();
    const share = page.getByLabel('Shareable link to this scenario');
    await expect(share).toHaveValue(/customerService=20/);
    const link = await share.inputValue();
    expect(link).toContain('costPerHour=40');
    await expect(page).toHaveURL(/customerService=20/);
    const annual = await figure(page, 'Annual savings').textContent();

    const other = await context.newPage();
    await other.goto(link);
    await expect(other.getByRole('spinbutton', { name: 'Customer service (hours per week)' })).toHaveValue('20');
    await expect(other.getByLabel('Cost per hour')).toHaveValue('40');
    // 56 h/week x 4.33 = 242.48 h; x $40 = $9,699.20; x 70% = $6,789.44; x 12 = $81,473.28, shown in whole dollars
    await expect(figure(other, 'Annual savings')).toHaveText('$81,473');
    expect(annual).toBe('$81,473');
  });

  test('home page: the calculator is in #roi-calculator and its link returns there', async ({ page, context }) => {
    await page.goto('/');
    const section = page.locator('#roi-calculator');
    await section.getByRole('button', { name: 'Calculate ROI' }).click();
    await expect(figure(section, 'Monthly savings')).toHaveText('$3,865');
    await expect(section.getByLabel('Shareable link to this scenario')).toHaveValue(/#roi-calculator$/);
    const link = await section.getByLabel('Shareable link to this scenario').inputValue();
    expect(link).toMatch(/\/\?.*automationEfficiency=70.*#roi-calculator$/);
    const other = await context.newPage();
    await other.goto(link);
    await expect(figure(other.locator('#roi-calculator'), 'Monthly savings')).toHaveText('$3,865');
    await expect(other.locator('#roi-calculator').getByRole('heading', { name: 'Your estimated savings' })).toBeInViewport();
  });

  test('served HTML carries the search metadata and the free WebApplication structured data', async ({ request }) => {
    const html = await (await request.get('/roi-calculator')).text();
    expect(html).toMatch(/<title>Free AI Automation ROI Calculator \| Tri-Valley AI Automation<\/title>/);
    expect(html).toMatch(/<meta name="description" content="Estimate the hours and dollars/);
    expect(html).toMatch(/<meta name="keywords" content="[^"]*ROI calculator/);
    expect(html).toMatch(/<link rel="canonical" href="http:\/\/127\.0\.0\.1:\d+\/roi-calculator"/);
    const ld = [...html.matchAll(/<script type="application\/ld\+json">(.*?)<\/script>/gs)].map((m) => JSON.parse(m[1]!));
    expect(ld).toContainEqual(
      expect.objectContaining({ '@type': 'WebApplication', offers: expect.objectContaining({ price: '0', priceCurrency: 'USD' }) }),
    );
  });

  test('calls to action lead to the consultation and the services', async ({ page }) => {
    await page.goto('/roi-calculator');
    await page.getByRole('link', { name: 'Schedule Free Consultation' }).click();
    await expect(page).toHaveURL(/\/#contact$/);
    await expect(page.getByRole('form', { name: 'Contact form' })).toBeInViewport();
    await page.goto('/roi-calculator');
    await page.getByRole('link', { name: 'View Our Services' }).click();
    await expect(page).toHaveURL(/\/#services$/);
    await expect(page.locator('#services').getByRole('heading', { level: 2 })).toBeInViewport();
  });
});
