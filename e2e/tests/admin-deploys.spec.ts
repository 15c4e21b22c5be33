import type { DeployLogPage, DeployToken } from '@site/contracts/deploys';
import { expect, expectHydrated, test, type Browser, type Page } from '../support/test';
import { adminGet, adminLogin } from '../support/admin-api';
import { expectNoSeriousA11yViolations, isAxeWidth } from '../support/axe';
import { BASE_URL } from '../support/env';
import { watchPageErrors } from '../support/page-errors';

/*
 * Deploy tokens and the deploy log in the admin (issue 33), from a real browser: the owner makes a token for a team's
 * CI, sees it once (the focus on it, with Copy), finds it listed without the token; the CI uses it over HTTP (for
 * another app: refused, and the deploy log shows the refusal; for its own app: its last use is shown); the owner
 * revokes it and it answers 401. The log shows what the API holds (its empty state on a fresh site). In both themes,
 * at 1280 and 390 px, axe-clean.
 */

const THEMES = ['light', 'dark'] as const;
const WIDTHS = [1280, 390] as const;

async function adminContext(browser: Browser, theme: (typeof THEMES)[number]) {
  const context = await browser.newContext({ baseURL: BASE_URL, viewport: { width: WIDTHS[0], height: 900 } });
  await context.addInitScript((t) => localStorage.setItem('theme', t), theme);
  await adminLogin(context.request);
  return context;
}

/**
 * Each width: the heading, no loading placeholder, fits, and (outside CI) a full-page screenshot to look at; axe-clean
 * once per theme, at that theme's width (isAxeWidth: light at desktop, dark at phone width).
 */
async function checkEachWidth(page: Page, what: string, heading: string, theme: (typeof THEMES)[number]) {
  for (const width of WIDTHS) {
    await page.setViewportSize({ width, height: 900 });
    await expect(page.getByRole('heading', { level: 1, name: heading })).toBeVisible();
    await expect(page.getByRole('status').filter({ hasText: /Loading/ })).toHaveCount(0);
    await page.evaluate(() => Promise.all(document.getAnimations().map((a) => a.finished.catch(() => undefined))));
    expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth), `${what} wider than ${width}px`).toBeLessThanOrEqual(0);
    if (isAxeWidth(theme, width)) await expectNoSeriousA11yViolations(page, `${what} ${theme} ${width}px`);
    if (!process.env.CI) await page.screenshot({ path: test.info().outputPath(`${what.replaceAll(' ', '-')}-${width}.png`), fullPage: true });
  }
}

for (const theme of THEMES) {
  test(`a deploy token is made, shown once, listed without it and revoked; the deploy log shows what the API holds (${theme})`, async ({ browser }) => {
    test.setTimeout(90_000);
    const context = await adminContext(browser, theme);
    const page = await context.newPage();
    const errors = watchPageErrors(page);
    const name = `e2e CI ${theme} ${Date.now()}`;

    await page.goto('/admin/deploys');
    await expect(page.getByRole('heading', { level: 1, name: 'Deploys' })).toBeVisible();
    await expectHydrated(page);
    await expect(page.getByRole('navigation', { name: 'Admin' }).getByRole('link', { name: 'Deploys' })).toHaveAttribute('aria-current', 'page');

    // The log as the API holds it: its empty state on a site nothing was deployed to, else its newest entries.
    const log = await adminGet<DeployLogPage>(context.request, '/api/admin/deploys');
    const logPanel = page.getByRole('region', { name: 'Deploy log' });
    if (log.entries.length === 0) await expect(logPanel.getByText('No deploys yet. Each deploy, rollback and refusal shows here as it happens.')).toBeVisible();
    else await expect(logPanel.getByRole('list', { name: 'Deploys, newest first' }).getByRole('listitem')).toHaveCount(log.entries.length);
    await expect(logPanel.getByRole('combobox', { name: 'App' })).toHaveValue('');

    // The form says what is missing.
    const form = page.getByRole('form', { name: 'New deploy token' });
    await form.getByRole('button', { name: 'Create token' }).click();
    await expect(form.getByText('Pick at least one app the token may deploy.')).toBeVisible();

    // Made: shown once, with the focus on it.
    await form.getByRole('textbox', { name: /^Name/ }).fill(name);
    await form.getByRole('checkbox', { name: /blog/ }).check();
    await form.getByRole('button', { name: 'Create token' }).click();
    const notice = page.getByRole('status', { name: `Copy the token for "${name}" now: it will not be shown again.` });
    await expect(notice).toBeVisible();
    await expect(notice).toBeFocused();
    await expect(notice.getByRole('button', { name: 'Copy Deploy token' })).toBeVisible();
    const token = (await notice.getByRole('figure').filter({ hasText: 'Deploy token' }).locator('code').textContent())!.trim();
    expect(token).toMatch(/^dpl_[\w-]{43}$/);

    // Listed, never used, and never with the token: not on the page's list, not in the API's.
    const row = page.getByRole('list', { name: 'Deploy tokens' }).getByRole('listitem').filter({ hasText: name });
    await expect(row).toContainText('Never used');
    await expect(row).toContainText('blog');
    await expect(page.getByRole('list', { name: 'Deploy tokens' })).not.toContainText(token);
    const listed = await adminGet<{ tokens: DeployToken[] }>(context.request, '/api/admin/deploy-tokens');
    expect(JSON.stringify(listed)).not.toContain(token);
    const id = listed.tokens.find((t) => t.name === name)!.id;

    await checkEachWidth(page, `deploys ${theme} token shown`, 'Deploys', theme);
    await page.setViewportSize({ width: WIDTHS[0], height: 900 });

    // Used by a team's CI: for another app it is refused (403) and the log says so; for its own app it is let in
    // (the releases list) and its last use is noted with the address.
    const bearer = { authorization: `Bearer ${token}` };
    const wrongApp = await context.request.post('/api/releases/marketing/rollback', { headers: bearer, data: {} });
    expect(wrongApp.status(), await wrongApp.text()).toBe(403);
    expect(((await wrongApp.json()) as { error: { code: string } }).error.code).toBe('token_not_for_app');
    const ownApp = await context.request.get('/api/releases/blog', { headers: bearer });
    expect(ownApp.status(), await ownApp.text()).toBe(200);

    // Put away, and not shown again after a reload either; the reload shows the token's last use and the refusal.
    await notice.getByRole('button', { name: 'I have copied it' }).click();
    await expect(page.getByText(token)).toHaveCount(0);
    await page.reload();
    await expectHydrated(page);
    await expect(row).toContainText(/Last used just now from \S+/);
    expect(await page.content()).not.toContain(token);
    await logPanel.getByRole('combobox', { name: 'App' }).selectOption('marketing');
    const refusal = logPanel.getByRole('article', { name: 'Rollback of marketing: refused' }).filter({ hasText: 'This deploy token may not deploy marketing.' }).first();
    await expect(refusal).toBeVisible();
    await expect(refusal).toContainText('Refused');
    await expect(refusal).toContainText('Rollback');

    // Revoked after a confirm: gone from the screen and the API.
    await row.getByRole('button', { name: `Revoke ${name}` }).click();
    const dialog = page.getByRole('alertdialog', { name: 'Revoke deploy token' });
    await expect(dialog).toBeVisible();
    await expectNoSeriousA11yViolations(page, `revoke dialog ${theme}`);
    await dialog.getByRole('button', { name: 'Revoke', exact: true }).click();
    await expect(dialog).toHaveCount(0);
    await expect(row).toHaveCount(0);
    await expect(page.getByRole('heading', { name: /^Live tokens/ })).toBeFocused();
    const after = await adminGet<{ tokens: DeployToken[] }>(context.request, '/api/admin/deploy-tokens');
    expect(after.tokens.map((t) => t.id)).not.toContain(id);
    // Revoked means refused: its own app now answers 401.
    expect((await context.request.get('/api/releases/blog', { headers: bearer })).status()).toBe(401);

    await expect(page.getByText('Deploy token revoked')).toBeVisible();
    // The toast gone first: axe reads a toast mid-animation as faint text.
    await expect(page.locator('[data-sonner-toast]')).toHaveCount(0, { timeout: 15_000 });
    await checkEachWidth(page, `deploys ${theme} after revoke`, 'Deploys', theme);

    // The dashboard's Recent deploys, with its way to the whole log.
    await page.setViewportSize({ width: WIDTHS[0], height: 900 });
    await page.goto('/admin/dashboard');
    await expectHydrated(page);
    const recent = page.getByRole('region', { name: 'Recent deploys' });
    await expect(recent).toBeVisible();
    // At least this test's refusal; at most the five newest.
    const recentItems = recent.getByRole('list', { name: 'Recent deploys, newest first' }).getByRole('listitem');
    await expect(recentItems.first()).toBeVisible();
    expect(await recentItems.count()).toBeLessThanOrEqual(5);
    await recent.screenshot({ path: test.info().outputPath(`dashboard-recent-deploys-${theme}.png`) });
    await recent.getByRole('link', { name: 'All deploys' }).click();
    await expect(page).toHaveURL(/\/admin\/deploys$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Deploys' })).toBeVisible();

    errors.expectClean();
    await context.close();
  });
}
