import type { Page } from '@playwright/test';
import { expect, test } from '../support/test';
import { expectNoSeriousA11yViolations } from '../support/axe';
import { deferred } from '../support/deferred';
import { watchPageErrors } from '../support/page-errors';

test.describe('not found', () => {
  test('an unknown path answers 404 and offers the way home', async ({ page }) => {
    const res = await page.goto('/this/page/does-not-exist');
    expect(res?.status()).toBe(404);
    await expect(page.getByRole('heading', { name: 'Oops! Page not found' })).toBeVisible();
    await page.getByRole('link', { name: 'Return to Home' }).click();
    await expect(page).toHaveURL(/\/$/);
    await expect(page.locator('#home')).toBeVisible();
  });

  test('an unknown path inside a remote’s space is the same not-found page', async ({ page }) => {
    for (const path of ['/local-services/nowhere', '/case-studies/nowhere']) {
      const res = await page.goto(path);
      expect(res?.status()).toBe(404);
      await expect(page.getByRole('heading', { name: 'Oops! Page not found' })).toBeVisible();
    }
  });
});

test.describe('theme', () => {
  const isDark = (page: import('@playwright/test').Page) => page.evaluate(() => document.documentElement.classList.contains('dark'));

  test('cycles light -> dark -> system -> light and survives a reload', async ({ page }) => {
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.goto('/');
    const toggle = page.getByRole('button', { name: /^Theme:/ });
    await expect(toggle).toHaveAccessibleName(/Theme: Light/);
    expect(await isDark(page)).toBe(false);

    await toggle.click();
    await expect(toggle).toHaveAccessibleName(/Theme: Dark/);
    // The colours follow the icon one frame later (use-theme-store.ts, applyTheme).
    await expect.poll(() => isDark(page)).toBe(true);
    await page.reload();
    await expect(page.getByRole('button', { name: /^Theme: Dark/ })).toBeVisible();
    expect(await isDark(page)).toBe(true);

    await page.getByRole('button', { name: /^Theme:/ }).click();
    await expect(page.getByRole('button', { name: /^Theme:/ })).toHaveAccessibleName(/Theme: System/);
    // System follows the OS setting, live.
    await expect.poll(() => isDark(page)).toBe(true);
    await page.emulateMedia({ colorScheme: 'light' });
    await expect.poll(() => isDark(page)).toBe(false);

    await page.getByRole('button', { name: /^Theme:/ }).click();
    await expect(page.getByRole('button', { name: /^Theme:/ })).toHaveAccessibleName(/Theme: Light/);
    expect(await page.evaluate(() => localStorage.getItem('theme'))).toBe('light');
  });

  test('a stored garbage value gives light', async ({ page }) => {
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.addInitScript(() => localStorage.setItem('theme', 'purple'));
    await page.goto('/');
    await expect(page.getByRole('button', { name: /^Theme:/ })).toHaveAccessibleName(/Theme: Light/);
    expect(await isDark(page)).toBe(false);
  });
});

/**
 * Whether the browser tells assistive technology that the button named `name` is expanded (Chromium's accessibility
 * tree, what a screen reader reads): a popovertarget button has the state of its popover natively, with no
 * aria-expanded (which the Nu checker rejects beside popovertarget; Playwright's own check reads only that attribute).
 */
async function expandedForScreenReaders(page: Page, name: string): Promise<boolean | undefined> {
  const cdp = await page.context().newCDPSession(page);
  try {
    const { root } = await cdp.send('DOM.getDocument', { depth: 0 });
    const { nodes } = await cdp.send('Accessibility.queryAXTree', { nodeId: root.nodeId, accessibleName: name, role: 'button' });
    const expanded = nodes[0]?.properties?.find((p) => p.name === 'expanded');
    return expanded ? Boolean(expanded.value.value) : undefined;
  } finally {
    await cdp.detach();
  }
}

test('the mobile menu opens, navigates and closes', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto('/');
  const open = page.getByRole('button', { name: 'Open menu' });
  await open.click();
  const menu = page.getByRole('navigation', { name: 'Mobile' });
  await expect(menu).toBeVisible();
  await expect(page.getByRole('button', { name: 'Close menu' })).toBeVisible();
  // The open menu, with the header it belongs to, in the light theme (the dark one below).
  await expectNoSeriousA11yViolations(page, 'phone menu open (light)', { chrome: true });
  await page.getByRole('button', { name: 'Close menu' }).click();
  await expect(menu).toBeHidden();

  // Escape and a tap outside close it too (the browser's own popover behaviour), the focus left on the button.
  await page.getByRole('button', { name: 'Open menu' }).click();
  await expect(menu).toBeVisible();
  await expect.poll(() => expandedForScreenReaders(page, 'Close menu')).toBe(true);
  await page.keyboard.press('Escape');
  await expect(menu).toBeHidden();
  await expect.poll(() => expandedForScreenReaders(page, 'Open menu')).toBe(false);
  await expect(page.getByRole('button', { name: 'Open menu' })).toBeFocused();
  await page.getByRole('button', { name: 'Open menu' }).click();
  await expect(menu).toBeVisible();
  await page.mouse.click(200, 800);
  await expect(menu).toBeHidden();

  await page.getByRole('button', { name: 'Open menu' }).click();
  await menu.getByRole('link', { name: 'Blog' }).click();
  await expect(page).toHaveURL(/\/blog$/);
  await expect(menu).toBeHidden();
  await expect.poll(() => expandedForScreenReaders(page, 'Open menu')).toBe(false);

  await page.evaluate(() => localStorage.setItem('theme', 'dark'));
  await page.reload();
  await page.getByRole('button', { name: 'Open menu' }).click();
  await expect(page.getByRole('button', { name: 'Close menu' })).toBeVisible();
  await expectNoSeriousA11yViolations(page, 'phone menu open (dark)', { chrome: true });
});

test('the mobile menu opens and closes with no script at all (the browser’s popover)', async ({ browser }) => {
  const context = await browser.newContext({ javaScriptEnabled: false, viewport: { width: 390, height: 844 } });
  const page = await context.newPage();
  await page.goto('/blog');
  const menu = page.getByRole('navigation', { name: 'Mobile' });
  await expect(menu).toBeHidden();
  await page.getByRole('button', { name: 'Open menu' }).click();
  await expect(menu).toBeVisible();
  await expect(menu.getByRole('link', { name: 'Free Analysis' })).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(menu).toBeHidden();
  await context.close();
});

test('a header link from another page lands on / scrolled to its section', async ({ page }) => {
  await page.goto('/blog');
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Contact' }).click();
  await expect(page).toHaveURL(/\/#contact$/);
  await expect(page.locator('#contact')).toBeInViewport();
  expect(await page.evaluate(() => window.scrollY)).toBeGreaterThan(200);
});

test('Pricing and Free Consultation scroll to services and contact, even when clicked while the page loads', async ({ page }) => {
  // Hold the home page's code back until both clicks have landed, as a quick visitor's would before its sections are
  // hydrated: the sections are already there, in the server's HTML, and the header (hydrated by the shell) scrolls to them.
  const codeHeld = deferred();
  await page.route('**/mfe/marketing/assets/__federation_expose_App-*.js', async (route) => {
    await codeHeld.promise;
    await route.continue();
  });
  try {
    // Not waiting for the page's code at all ('commit': the fixture would wait for hydration): once the HTML is
    // parsed, a click is kept until the code can act on it.
    await page.goto('/', { waitUntil: 'commit' });
    await page.waitForLoadState('domcontentloaded');
    await expect(page.locator('#contact')).toHaveCount(1);
    await expect(page.locator('#contact')).not.toBeInViewport();
    await page.getByRole('button', { name: 'Free Consultation', exact: true }).click();
    await expect(page.locator('#contact')).toBeInViewport();
    await page.getByRole('button', { name: 'Pricing' }).click();
    await expect(page.locator('#services')).toBeInViewport();
    // All of it happened while the page's own code was still held: it has not hydrated the page.
    await expect(page.locator('html')).not.toHaveAttribute('data-hydrated');
  } finally {
    codeHeld.resolve();
  }
});

test('the Local Services submenu lists the four towns and works with the keyboard', async ({ page }) => {
  await page.goto('/');
  const trigger = page.getByRole('button', { name: 'Local Services' });
  await trigger.focus();
  await page.keyboard.press('Enter');
  await expect(trigger).toHaveAttribute('aria-expanded', 'true');
  for (const town of ['Danville', 'San Ramon', 'Walnut Creek', 'Pleasanton']) {
    await expect(page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: town })).toBeVisible();
  }
  await page.keyboard.press('Escape');
  await expect(trigger).toHaveAttribute('aria-expanded', 'false');
  await trigger.click();
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Walnut Creek' }).click();
  await expect(page).toHaveURL(/\/local-services\/walnut-creek-ai-solutions$/);
});

test('one React in the page: remote router hooks follow the shell’s navigation', async ({ page }) => {
  const errors = watchPageErrors(page);
  await page.goto('/');
  await expect(page.locator('[data-mfe="marketing"]')).toBeVisible();
  // Client-side navigation through the shell's router into each other remote.
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Blog' }).click();
  await expect(page.locator('[data-mfe="blog"]')).toBeVisible();
  await expect(page).toHaveURL(/\/blog$/);
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Free Analysis' }).click();
  await expect(page.locator('[data-mfe="analysis"]')).toBeVisible();
  await page.goBack();
  await expect(page.locator('[data-mfe="blog"]')).toBeVisible();
  // A shared singleton means every remote sees the same React as the shell.
  const reactCopies = await page.evaluate(
    () =>
      performance
        .getEntriesByType('resource')
        .map((r) => r.name.split('/').pop() ?? '')
        .filter((f) => f.startsWith('__federation_shared_react-') && !/^__federation_shared_react-(?:dom|router)/.test(f)).length,
  );
  expect(reactCopies).toBe(1);
  expect(errors.problems.filter((p) => /Invalid hook call|useRoutes\(\) may be used only|more than one copy of React/i.test(p))).toEqual([]);
  errors.expectClean();
});
