import { expect, test, type Page } from '@playwright/test';

/** The full page in slices a person can read. */
async function shoot(page: Page, name: string, width: number) {
  const height = await page.evaluate(() => document.documentElement.scrollHeight);
  const slice = width > 1000 ? 1500 : 1700;
  for (let y = 0, i = 0; y < height; y += slice, i++) {
    await page.screenshot({ path: `${DIR}/${name}-${i}.png`, fullPage: true, clip: { x: 0, y, width, height: Math.min(slice, height - y) } });
  }
}

// Screenshots for a person to look at (light/dark, desktop/phone). Off by default: SCREENSHOTS=<dir>.
const DIR = process.env.SCREENSHOTS;
test.skip(!DIR, 'set SCREENSHOTS=<dir> to take the screenshots');

for (const theme of ['light', 'dark'] as const) {
  for (const viewport of [
    { name: 'desktop', width: 1280, height: 900 },
    { name: 'phone', width: 390, height: 844 },
  ]) {
    test(`screenshots ${theme} ${viewport.name}`, async ({ page }) => {
      await page.setViewportSize({ width: viewport.width, height: viewport.height });
      await page.addInitScript((t) => localStorage.setItem('theme', t), theme);
      await page.goto('/');
      await expect(page.locator('#contact')).toBeAttached();
      await page.locator('#roi-calculator').getByRole('button', { name: 'Calculate ROI' }).click();
      await page.waitForTimeout(400);
      await shoot(page, `home-${theme}-${viewport.name}`, viewport.width);
      await page.goto('/roi-calculator');
      await page.getByRole('button', { name: 'Calculate ROI' }).click();
      await page.waitForTimeout(400);
      await shoot(page, `roi-${theme}-${viewport.name}`, viewport.width);
    });
  }
}
