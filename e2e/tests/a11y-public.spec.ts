import type { Browser, BrowserContext, Page } from '@playwright/test';
import { isAxeWidth, SITE_CHROME, seriousViolations, type ScanOptions } from '../support/axe';
import { BASE_URL } from '../support/env';
import { PUBLIC_ROUTES, settle } from '../support/public-routes';
import { expect, test } from '../support/test';

/*
 * axe on every public route, in both themes: no serious or critical violation anywhere. Each page is scanned once per
 * theme, in a test of its own per page and theme (both workers take them): light at desktop width (1366) and dark at
 * phone width (390), so each page is seen at both widths (isAxeWidth). The site's header and footer, the same on every
 * page and the part that changes most with the width, are scanned with the home page at both widths in both themes,
 * and left out of every other scan (support/axe.ts).
 */

test.describe.configure({ mode: 'parallel' });

const THEMES = ['light', 'dark'] as const;
type Theme = (typeof THEMES)[number];
const WIDTHS = [1366, 390];
/** The page whose scans take the site's header and footer with them. */
const CHROME_PAGE = '/';
const withChrome = (path: string) => (path === CHROME_PAGE ? `${path} and the site's header and footer` : path);

async function themedContext(browser: Browser, theme: Theme, width: number): Promise<BrowserContext> {
  const context = await browser.newContext({ baseURL: BASE_URL, viewport: { width, height: 900 } });
  await context.addInitScript((t) => localStorage.setItem('theme', t), theme);
  return context;
}

/** What axe reports on the page in `theme`, its lines prefixed with `where`. */
async function scan(page: Page, theme: Theme, where: string, options: ScanOptions = {}): Promise<string[]> {
  expect(await page.evaluate(() => document.documentElement.classList.contains('dark')), `${where}: the ${theme} theme is on`).toBe(theme === 'dark');
  if (options.chrome) {
    // What every other scan leaves out is exactly the header and the footer this one covers.
    await expect(page.locator(SITE_CHROME[0]).and(page.getByRole('banner'))).toHaveCount(1);
    await expect(page.locator(SITE_CHROME[1]).and(page.getByRole('contentinfo'))).toHaveCount(1);
  }
  return (await seriousViolations(page, options)).map((line) => `${where}: ${line}`);
}

for (const { path, h1 } of PUBLIC_ROUTES) {
  for (const theme of THEMES) {
    const chrome = path === CHROME_PAGE;
    // The home page with the header and footer at both widths; every other page at its theme's width.
    const widths = chrome ? WIDTHS : WIDTHS.filter((width) => isAxeWidth(theme, width));
    test(`axe: no serious or critical violation on ${withChrome(path)} (${theme}, ${widths.join(' and ')} px)`, async ({ browser }) => {
      test.setTimeout(60_000);
      const report: string[] = [];
      const context = await themedContext(browser, theme, widths[0]!);
      const page = await context.newPage();
      await page.goto(path);
      await settle(page, h1);
      // Each state at each width, the page resized in between (the public pages follow the width in CSS alone).
      const scanEachWidth = async (state: string, options: ScanOptions) => {
        for (const width of widths) {
          await page.setViewportSize({ width, height: 900 });
          await settle(page, h1);
          report.push(...(await scan(page, theme, `${width}px${state}`, options)));
        }
      };
      await scanEachWidth('', { chrome });
      if (path === '/roi-calculator') {
        await page.getByRole('button', { name: 'Calculate ROI' }).click();
        await expect(page.getByText('Annual savings', { exact: true }).first()).toBeVisible();
        await scanEachWidth(', with results', {});
      }
      await context.close();
      expect(report, report.join('\n')).toEqual([]);
    });
  }
}

/*
 * The server's HTML alone, before any code arrives (every script refused), at phone width: what a visitor sees from
 * the first paint until hydration. Every rule runs in the light theme. The dark theme changes nothing but colours,
 * and it is there that stylesheets must already be right (a rule only the remote's code brings, were it to re-insert
 * its CSS, would show light-theme colours on the dark background until then): the same page is switched to the dark
 * theme by its own theme script, as a visitor with dark stored gets it, and the colour rules run again.
 */
test.describe('the server-rendered HTML, before its code loads', () => {
  const width = 390;
  const COLOUR_RULES = ['color-contrast', 'link-in-text-block'];

  async function scanWithoutCode(browser: Browser, path: string, h1: RegExp): Promise<string[]> {
    const context = await themedContext(browser, 'light', width);
    await context.route(/\.js(\?|$)/, (route) => route.abort());
    const page = await context.newPage();
    // 'commit': the page is never hydrated here, so the fixture must not wait for it.
    await page.goto(path, { waitUntil: 'commit' });
    await settle(page, h1, { live: false });
    expect(await page.evaluate(() => document.documentElement.hasAttribute('data-hydrated')), 'no code has run').toBe(false);
    const chrome = path === CHROME_PAGE;
    const report = await scan(page, 'light', 'light', { chrome });

    // The inline script in the head that applies the stored theme before the first paint (no file: it runs here).
    const themeScript = await page.evaluate(() =>
      Array.from(document.head.querySelectorAll('script:not([src])'), (s) => s.textContent ?? '').find((text) => text.includes("getItem('theme')")),
    );
    expect(themeScript, "the page's inline theme script").toBeTruthy();
    await page.evaluate(() => localStorage.setItem('theme', 'dark'));
    await page.evaluate(themeScript!);
    await settle(page, h1, { live: false });
    report.push(...(await scan(page, 'dark', 'dark', { chrome, rules: COLOUR_RULES })));
    await context.close();
    return report;
  }

  for (const { path, h1 } of PUBLIC_ROUTES) {
    test(`axe: ${withChrome(path)} is clean before its code loads (light; dark colours; ${width} px)`, async ({ browser }) => {
      test.setTimeout(60_000);
      const report = await scanWithoutCode(browser, path, h1);
      expect(report, report.join('\n')).toEqual([]);
    });
  }

  test(`axe: a shared report is clean before its code loads (light; dark colours; ${width} px)`, async ({ browser, request }) => {
    test.setTimeout(60_000);
    const answer = await request.post('/api/analyze-smb-business', {
      headers: { origin: BASE_URL },
      data: { businessName: 'Before Hydration Bakery', location: 'Danville, CA' },
    });
    expect(answer.status()).toBe(200);
    const { id, businessInfo } = (await answer.json()) as { id: string; businessInfo: { businessName: string } };
    const report = await scanWithoutCode(browser, `/free-analysis/report/${id}`, new RegExp(businessInfo.businessName));
    expect(report, report.join('\n')).toEqual([]);
  });
});
