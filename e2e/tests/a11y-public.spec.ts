import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '../support/test';
import { BASE_URL } from '../support/env';
import { PUBLIC_ROUTES, settle } from '../support/public-routes';

/*
 * axe on every public route, in both themes, at desktop (1366) and phone (390) width: no serious or critical
 * violation anywhere. One page per theme and width walks all routes (one browser context each), so the scan
 * stays around a minute per combination.
 */

/** The serious and critical violations axe finds on the page as it is now, one line per rule. */
async function seriousViolations(page: Page): Promise<string[]> {
  const results = await new AxeBuilder({ page }).analyze();
  return results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} (${v.impact}, ${v.nodes.length}): ${v.nodes.map((n) => n.target.join(' ')).slice(0, 4).join(' | ')}`);
}

for (const theme of ['light', 'dark'] as const) {
  for (const width of [1366, 390]) {
    test(`axe: no serious or critical violation on any public route (${theme}, ${width}px)`, async ({ browser }) => {
      test.setTimeout(240_000);
      const context = await browser.newContext({ baseURL: BASE_URL, viewport: { width, height: 900 } });
      await context.addInitScript((t) => localStorage.setItem('theme', t), theme);
      const page = await context.newPage();
      const report: string[] = [];
      for (const { path, h1 } of PUBLIC_ROUTES) {
        await page.goto(path);
        // A page that never shows its content or never hydrates is reported with the rest rather than ending the scan.
        const unsettled = await settle(page, h1).then(
          () => null,
          (error: Error) => error.message.split('\n')[0],
        );
        if (unsettled) {
          report.push(`${path}: did not show its h1 ${h1} or did not hydrate: ${unsettled}`);
          continue;
        }
        expect(await page.evaluate(() => document.documentElement.classList.contains('dark'))).toBe(theme === 'dark');
        report.push(...(await seriousViolations(page)).map((line) => `${path}: ${line}`));
        if (path === '/roi-calculator') {
          await page.getByRole('button', { name: 'Calculate ROI' }).click();
          await expect(page.getByText('Annual savings', { exact: true }).first()).toBeVisible();
          await settle(page, h1);
          report.push(...(await seriousViolations(page)).map((line) => `${path} (results): ${line}`));
        }
      }
      await context.close();
      expect(report, report.join('\n')).toEqual([]);
    });
  }
}

/*
 * The same scan of the server's HTML alone, before any code arrives (every script refused): what a visitor sees
 * from the first paint until hydration. Stylesheets must already be right there: a rule only the remote's code
 * brings (it re-inserts its CSS) would show light-theme colours on the dark background until then.
 */
for (const theme of ['light', 'dark'] as const) {
  test(`axe: the server-rendered HTML is clean before its code loads (${theme}, 390px)`, async ({ browser, request }) => {
    test.setTimeout(240_000);
    const answer = await request.post('/api/analyze-smb-business', {
      headers: { origin: BASE_URL },
      data: { businessName: `Before Hydration Bakery ${theme}`, location: 'Danville, CA' },
    });
    expect(answer.status()).toBe(200);
    const { id, businessInfo } = (await answer.json()) as { id: string; businessInfo: { businessName: string } };
    const routes = [...PUBLIC_ROUTES, { path: `/free-analysis/report/${id}`, h1: new RegExp(businessInfo.businessName) }];

    const context = await browser.newContext({ baseURL: BASE_URL, viewport: { width: 390, height: 900 } });
    await context.addInitScript((t) => localStorage.setItem('theme', t), theme);
    await context.route(/\.js(\?|$)/, (route) => route.abort());
    const page = await context.newPage();
    const report: string[] = [];
    for (const { path, h1 } of routes) {
      // 'commit': the page is never hydrated here, so the fixture must not wait for it.
      await page.goto(path, { waitUntil: 'commit' });
      const shown = await settle(page, h1, { live: false }).then(
        () => true,
        () => false,
      );
      if (!shown) {
        report.push(`${path}: did not show its h1 ${h1} without its code`);
        continue;
      }
      expect(await page.evaluate(() => document.documentElement.hasAttribute('data-hydrated'))).toBe(false);
      expect(await page.evaluate(() => document.documentElement.classList.contains('dark'))).toBe(theme === 'dark');
      report.push(...(await seriousViolations(page)).map((line) => `${path}: ${line}`));
    }
    await context.close();
    expect(report, report.join('\n')).toEqual([]);
  });
}
