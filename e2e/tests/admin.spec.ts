import { expect, expectHydrated, test, type APIRequestContext, type Browser, type Page } from '../support/test';
import { adminLogin, adminSend } from '../support/admin-api';
import { expectNoSeriousA11yViolations, isAxeWidth } from '../support/axe';
import { BASE_URL, E2E_ADMIN_PASSWORD } from '../support/env';
import { watchPageErrors } from '../support/page-errors';
import { startSiteServer } from '../support/servers';

const stamp = Date.now();
const TITLE = `Five automations for busy salons ${stamp}`;
const EXCERPT = 'Small automations that give a salon team back hours every week.';
const CONTENT =
  '<h2>Start small</h2><p>Reminders, rebooking and review requests are the three automations that pay back fastest for a salon. Here is how to set each up.</p><script>window.__pwned = true</script>';
const META = 'Five simple automations that save a busy salon several hours every single week.';

/** Signs in through the 'Admin Access' gate of the page it is on. */
async function signIn(page: Page, password = E2E_ADMIN_PASSWORD) {
  await expect(page.getByRole('heading', { level: 1, name: 'Admin Access' })).toBeVisible();
  await page.getByLabel(/^Password/).fill(password);
  await page.getByRole('button', { name: 'Sign In' }).click();
}

/** The list row of a post, by its title. */
const row = (page: Page, title: string) => page.getByRole('listitem').filter({ has: page.getByRole('heading', { name: title }) });

// In order: the post written in the first tests is the one edited, restored and deleted later.
test.describe('a post from the admin panel, in order', () => {
  test.describe.configure({ mode: 'serial' });

  test('the gate: a wrong password says "Incorrect password" and clears the field; the right one opens the panel', async ({ page }) => {
    const errors = watchPageErrors(page);
    await page.goto('/admin');
    await expect(page).toHaveTitle('Admin Access | Admin');
    const field = page.getByLabel(/^Password/);
    await expect(field).toHaveAttribute('required', '');
    await field.fill('not-the-password');
    await page.getByRole('button', { name: 'Sign In' }).click();
    await expect(page.getByText('Incorrect password')).toBeVisible();
    await expect(field).toHaveValue('');
    await expect(field).toBeFocused();

    await signIn(page);
    await expect(page).toHaveURL(/\/admin\/dashboard$/);
    const nav = page.getByRole('navigation', { name: 'Admin' });
    await expect(nav.getByRole('link', { name: 'Dashboard' })).toHaveAttribute('aria-current', 'page');
    await nav.getByRole('link', { name: 'Alert Management' }).click();
    await expect(page).toHaveURL(/\/admin\/alerts$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Alert Management' })).toBeVisible();
    // The section is saved in the session: /admin opens it again.
    await expect.poll(async () => ((await (await page.request.get('/api/admin/session')).json()) as { activeSection: string }).activeSection).toBe('alerts');
    await page.goto('/admin');
    await expect(page).toHaveURL(/\/admin\/alerts$/);
    // 401s are expected only from the wrong password above.
    expect(errors.problems.filter((p) => !p.includes('/api/admin/login') && !p.includes('401'))).toEqual([]);
  });

  test('create a post with preview, publish it, and find it on /blog and in the RSS feed', async ({ page }) => {
    test.setTimeout(90_000);
    const errors = watchPageErrors(page);
    await page.goto('/admin/posts/create');
    await signIn(page);
    await expect(page.getByRole('heading', { level: 1, name: 'Create Post' })).toBeVisible();

    await page.getByRole('button', { name: 'Create Post', exact: true }).last().click();
    await expect(page.getByText(/^Validation failed: Title must be at least 5 characters long, /)).toBeVisible();
    await expect(page.getByLabel(/^Title/)).toHaveAttribute('aria-invalid', 'true');

    await page.getByLabel(/^Title/).fill(TITLE);
    await page.getByLabel(/^Excerpt/).fill(EXCERPT);
    // The content as HTML, in the editor's HTML view: the script in it must never run, in the preview or anywhere.
    await page.getByRole('button', { name: 'HTML', pressed: false }).click();
    await page.getByLabel(/^Content/).fill(CONTENT);
    await page.getByRole('button', { name: 'HTML', pressed: true }).click();
    await expect(page.getByRole('textbox', { name: /^Content/ }).getByRole('heading', { level: 2, name: 'Start small' })).toBeVisible();
    await page.getByLabel(/^Author/).fill('Tri-Valley AI Team');
    await page.getByRole('combobox', { name: /^Category/ }).selectOption('How-To Guides');
    await page.getByLabel(/^Keywords/).fill(' salon, , automation ,');
    await page.getByLabel(/^Meta description/).fill(META);
    await expect(page.getByText(/^Validation failed/)).toHaveCount(0);

    await page.getByRole('button', { name: 'Preview' }).click();
    const preview = page.getByRole('region', { name: 'Preview' });
    await expect(preview.getByRole('heading', { name: TITLE })).toBeVisible();
    await expect(preview.getByRole('heading', { name: 'Start small' })).toBeVisible();
    await expect(preview.getByRole('list', { name: 'Tags' })).toHaveText('#salon#automation');
    expect(await page.evaluate(() => (window as unknown as { __pwned?: boolean }).__pwned)).toBeUndefined();
    await page.getByRole('button', { name: 'Preview' }).click();

    await page.getByRole('button', { name: 'Create Post', exact: true }).last().click();
    await expect(page).toHaveURL(/\/admin\/posts$/);
    await expect(page.getByText('Post created as a draft')).toBeVisible();
    const item = row(page, TITLE);
    await expect(item.getByText('draft', { exact: true })).toBeVisible();
    await expect(item.getByText('How-To Guides')).toBeVisible();

    await item.getByRole('button', { name: /^Publish/ }).click();
    await expect(item.getByText('published', { exact: true })).toBeVisible();
    await expect(item.getByRole('button', { name: /^Publish/ })).toHaveCount(0);

    await page.goto('/blog');
    await expect(page.getByRole('heading', { name: TITLE })).toBeVisible();
    const rss = await page.request.get('/blog/rss.xml');
    expect(rss.status()).toBe(200);
    expect(await rss.text()).toContain(TITLE);
    errors.expectClean();
  });

  test('edit: a reload mid-edit asks first, then offers the autosaved draft; saving keeps it; delete asks and removes it', async ({ page }) => {
    test.setTimeout(90_000);
    // Signed in by the API: the gate's form is the first test's, and the second's at a deep link.
    await adminLogin(page.request);
    await page.goto('/admin/posts');
    await row(page, TITLE).getByRole('link', { name: /^Edit/ }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Edit Post' })).toBeVisible();
    const excerpt = page.getByLabel(/^Excerpt/);
    await expect(excerpt).toHaveValue(EXCERPT);
    await excerpt.fill(`${EXCERPT} Edited before a reload.`);
    // The form keeps a local draft every few seconds.
    await expect(page.getByText(/Draft kept on this device at/)).toBeVisible({ timeout: 8000 });

    const dialogs: string[] = [];
    page.on('dialog', (d) => {
      dialogs.push(d.type());
      void d.accept();
    });
    await page.reload();
    expect(dialogs).toContain('beforeunload');

    const offer = page.getByRole('region', { name: 'Unsaved draft' });
    await expect(offer).toBeVisible();
    await expect(excerpt).toHaveValue(EXCERPT);
    await offer.getByRole('button', { name: 'Restore draft' }).click();
    await expect(excerpt).toHaveValue(`${EXCERPT} Edited before a reload.`);
    await page.getByRole('button', { name: 'Save Changes' }).click();
    await expect(page.getByText('Post updated')).toBeVisible();

    const slug = (await page.getByText(/^\/blog\//).first().textContent())!.trim().replace(/^\/blog\//, '');
    const published = await page.request.get(`/api/posts/${slug}`);
    expect(((await published.json()) as { excerpt: string }).excerpt).toBe(`${EXCERPT} Edited before a reload.`);

    // In-app navigation with unsaved changes asks too.
    await excerpt.fill('Changed again, not saved.');
    await page.getByRole('navigation', { name: 'Admin' }).getByRole('link', { name: 'Dashboard' }).click();
    const leave = page.getByRole('alertdialog', { name: 'Leave without saving?' });
    await expect(leave).toBeVisible();
    await leave.getByRole('button', { name: 'Cancel' }).click();
    await expect(page).toHaveURL(/\/edit$/);
    await excerpt.fill(`${EXCERPT} Edited before a reload.`);

    await page.getByRole('button', { name: 'Delete', exact: true }).click();
    const confirm = page.getByRole('alertdialog');
    await expect(confirm.getByText('Are you sure you want to delete this post? This action cannot be undone.', { exact: true })).toBeVisible();
    await confirm.getByRole('button', { name: 'Delete', exact: true }).click();
    await expect(page).toHaveURL(/\/admin\/posts$/);
    await expect(page.getByText('Post deleted')).toBeVisible();
    await expect(row(page, TITLE)).toHaveCount(0);
    expect((await page.request.get(`/api/posts/${slug}`)).status()).toBe(404);
  });

  test('delete from the list asks "Are you sure you want to delete this post?"', async ({ page }) => {
    await adminLogin(page.request);
    const title = `A draft to delete ${stamp}`;
    const created = await adminSend<{ id: string }>(page.request, 'POST', '/api/admin/posts', {
      title,
      excerpt: EXCERPT,
      content: CONTENT,
      author: 'Tri-Valley AI Team',
      category: 'AI Automation',
      metaDescription: META,
    });
    expect(created.status).toBe(201);
    await page.goto('/admin/posts');
    await row(page, title).getByRole('button', { name: /^Delete/ }).click();
    const confirm = page.getByRole('alertdialog');
    await expect(confirm.getByText('Are you sure you want to delete this post?', { exact: true })).toBeVisible();
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    await expect(row(page, title)).toHaveCount(1);
    await row(page, title).getByRole('button', { name: /^Delete/ }).click();
    // The row leaves at once (optimistically); the server's state is read once its answer to the screen's DELETE is in.
    const deleted = page.waitForResponse((r) => r.request().method() === 'DELETE' && new URL(r.url()).pathname === `/api/admin/posts/${created.body.id}`);
    await page.getByRole('alertdialog').getByRole('button', { name: 'Delete', exact: true }).click();
    await expect(row(page, title)).toHaveCount(0);
    expect((await deleted).status()).toBe(204);
    expect((await adminSend(page.request, 'DELETE', `/api/admin/posts/${created.body.id}`)).status).toBe(404);
  });

  test('Logout ends the session and returns to the home page', async ({ page }) => {
    await adminLogin(page.request);
    await page.goto('/admin/posts');
    await page.getByRole('navigation', { name: 'Admin' }).getByRole('button', { name: 'Logout' }).click();
    await expect(page).toHaveURL(`${BASE_URL}/`);
    expect(((await (await page.request.get('/api/admin/session')).json()) as { authenticated: boolean }).authenticated).toBe(false);
  });
});

/*
 * axe on every admin screen and on the states that only exist after a click, in both themes and at 1366 and 390 px,
 * and every screen fits 390 px: each screen once per theme and width. The dashboard and the alerts are scanned with
 * data in every panel (their fullest state), not a second time in the sweep. The tests make what they need and run in parallel
 * (both workers take them). The site's header and footer are a11y-public's (support/axe.ts).
 */
test.describe('axe on every admin screen', () => {
  test.describe.configure({ mode: 'parallel' });

  const THEMES = ['light', 'dark'] as const;
  type Theme = (typeof THEMES)[number];
  const WIDTHS = [1366, 390];

  /** A logged-in context in `theme` at `width` (the cookie comes from the API login, as the gate would set it). */
  async function adminContext(browser: Browser, theme: Theme, width: number) {
    const context = await browser.newContext({ baseURL: BASE_URL, viewport: { width, height: 900 } });
    await context.addInitScript((t) => localStorage.setItem('theme', t), theme);
    await adminLogin(context.request);
    return context;
  }

  /** A draft post of this test's own, through the admin API. */
  async function createDraft(api: APIRequestContext, title: string): Promise<string> {
    const draft = await adminSend<{ id: string }>(api, 'POST', '/api/admin/posts', {
      title: `${title} ${stamp}`,
      excerpt: EXCERPT,
      content: CONTENT,
      author: 'Tri-Valley AI Team',
      category: 'Case Studies',
      metaDescription: META,
    });
    expect(draft.status).toBe(201);
    return draft.body.id;
  }

  async function expectFits(page: Page, what: string, width: number) {
    expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth), `${what} wider than ${width}px`).toBeLessThanOrEqual(0);
  }

  /**
   * The screen loaded at the first width, measured at each width, resized in between (as a11y-public does): the admin
   * layout follows the width in CSS and in `useMediaQuery`, which listens for changes. Each width waits for the
   * heading, no loading placeholder, and no running animation (the sidebar folding into its menu). axe scans it once
   * per theme, at that theme's width (isAxeWidth: light at desktop, dark at phone width), so each screen is scanned at
   * both widths and in both themes.
   */
  async function scanEachWidth(page: Page, what: string, heading: string, theme: Theme) {
    for (const width of WIDTHS) {
      await page.setViewportSize({ width, height: 900 });
      await expect(page.getByRole('heading', { level: 1, name: heading })).toBeVisible();
      await expect(page.getByRole('status').filter({ hasText: /Loading/ })).toHaveCount(0);
      await page.evaluate(() => Promise.all(document.getAnimations().map((a) => a.finished.catch(() => undefined))));
      if (isAxeWidth(theme, width)) await expectNoSeriousA11yViolations(page, `${what} ${theme} ${width}px`);
      await expectFits(page, what, width);
    }
  }

  for (const theme of THEMES) {
    test(`axe: the admin gate has no serious violation (${theme}, 390 px)`, async ({ browser }) => {
      const gate = await browser.newContext({ baseURL: BASE_URL, viewport: { width: 390, height: 844 } });
      await gate.addInitScript((t) => localStorage.setItem('theme', t), theme);
      const page = await gate.newPage();
      await page.goto('/admin');
      await expect(page.getByRole('heading', { name: 'Admin Access' })).toBeVisible();
      await expectHydrated(page);
      await expectNoSeriousA11yViolations(page, `gate ${theme}`);
      await gate.close();
    });

    test(`axe: every other admin screen, and the states after a click, have no serious violation and fit 390 px (${theme})`, async ({ browser }) => {
      test.setTimeout(120_000);
      // One context (its cache warm after the first screen), as an owner moving between screens.
      const context = await adminContext(browser, theme, WIDTHS[0]);
      const draftId = await createDraft(context.request, `Axe check post ${theme}`);
      const page = await context.newPage();
      const screens: [string, string][] = [
        ['/admin/posts', 'Blog Posts'],
        ['/admin/posts/create', 'Create Post'],
        [`/admin/posts/${draftId}/edit`, 'Edit Post'],
        ['/admin/integrations', 'Integrations'],
        ['/admin/media', 'Media'],
      ];
      for (const [path, heading] of screens) {
        await page.setViewportSize({ width: WIDTHS[0], height: 900 });
        await page.goto(path);
        // The screen as it is once its data is in: live, and no panel still showing its loading placeholder.
        await expectHydrated(page);
        await scanEachWidth(page, path, heading, theme);
      }

      // States that only exist after a click, at phone width: the menu the admin nav folds into, the form's messages,
      // the preview, a dialog.
      await page.goto('/admin/posts/create');
      await expectHydrated(page);
      const menu = page.getByRole('button', { name: /Admin menu/ });
      await expect(menu).toHaveAttribute('aria-expanded', 'false');
      await expect(page.getByRole('navigation', { name: 'Admin' })).toHaveCount(0);
      await menu.click();
      await expect(menu).toHaveAttribute('aria-expanded', 'true');
      await expect(page.getByRole('navigation', { name: 'Admin' }).getByRole('link', { name: 'Blog Posts' })).toBeVisible();
      await page.getByRole('button', { name: 'Create Post', exact: true }).last().click();
      await expect(page.getByText(/^Validation failed/)).toBeVisible();
      await expectNoSeriousA11yViolations(page, `form errors ${theme}`);
      await page.goto(`/admin/posts/${draftId}/edit`);
      await expectHydrated(page);
      await page.getByRole('button', { name: 'Preview' }).click();
      await expect(page.getByRole('region', { name: 'Preview' })).toBeVisible();
      await expectNoSeriousA11yViolations(page, `preview ${theme}`);
      await page.getByRole('button', { name: 'Delete', exact: true }).click();
      await expect(page.getByRole('alertdialog')).toBeVisible();
      await expectNoSeriousA11yViolations(page, `delete dialog ${theme}`);
      await page.getByRole('alertdialog').getByRole('button', { name: 'Delete', exact: true }).click();
      await expect(page).toHaveURL(/\/admin\/posts$/);
      await context.close();
    });
  }

  /**
   * Data in every panel of the dashboard, made through the site's own doors as visitors and a workflow would: a contact
   * message, a published post, an analysis with its funnel events, page views, and an alert (a badly signed webhook).
   * Some problems only show with data: the lead's e-mail link in a line of grey text (axe link-in-text-block) did not
   * exist on an empty dashboard.
   */
  async function fillDashboard(api: APIRequestContext, theme: string) {
    const origin = { origin: BASE_URL };
    // A person's browser: the events endpoint leaves out what headless and automated browsers send.
    const browserHeaders = { ...origin, 'user-agent': 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36' };
    const contact = await api.post('/api/contact', {
      headers: origin,
      data: { name: 'Dana Whitfield', email: `dana.${theme}.${stamp}@example.com`, company: 'Whitfield Dental', subject: 'Booking reminders', message: 'Could you automate our appointment reminders and rebooking?' },
    });
    expect(contact.status(), await contact.text()).toBe(200);
    const post = await adminSend<{ id: string }>(api, 'POST', '/api/admin/posts', {
      title: `Dashboard data post ${theme} ${stamp}`,
      excerpt: EXCERPT,
      content: CONTENT,
      author: 'Tri-Valley AI Team',
      category: 'How-To Guides',
      metaDescription: META,
    });
    expect((await adminSend(api, 'POST', `/api/admin/posts/${post.body.id}/publish`)).status).toBe(200);
    const analysis = await api.post('/api/analyze-smb-business', { headers: origin, data: { businessName: 'Dashboard Data Bakery', location: 'Danville, CA' } });
    expect(analysis.status(), await analysis.text()).toBe(200);
    for (const [name, path] of [
      ['page_view', '/'],
      ['page_view', '/free-analysis'],
      ['page_view', '/roi-calculator'],
      ['analysis_started', '/free-analysis'],
      ['analysis_completed', '/free-analysis'],
      ['contact_submitted', '/'],
    ]) {
      const res = await api.post('/api/events', { headers: browserHeaders, data: { name, path } });
      expect(res.status(), `${name}: ${await res.text()}`).toBe(202);
    }
    const unsigned = await api.post('/api/webhook', { headers: { 'content-type': 'application/json', 'x-webhook-signature': 't=1,v1=00' }, data: '{}' });
    expect(unsigned.status()).toBe(401);
  }

  for (const theme of THEMES) {
    test(`axe: the dashboard and the alerts with data in every panel have no serious violation and fit 390 px (${theme})`, async ({ browser }) => {
      test.setTimeout(120_000);
      const context = await adminContext(browser, theme, WIDTHS[0]);
      await fillDashboard(context.request, theme);
      const page = await context.newPage();
      await page.goto('/admin/dashboard');
      // Every panel shows what was just made, not its empty state.
      const inbox = page.getByRole('region', { name: 'Contact messages' });
      await expect(inbox.getByRole('link', { name: `dana.${theme}.${stamp}@example.com` })).toBeVisible();
      await expect(page.getByText('No messages yet')).toHaveCount(0);
      await expect(page.getByRole('img', { name: /analyses started/ }).first()).toBeVisible();
      // Live, and every panel has loaded (no 'Loading…' placeholder left) before axe looks.
      await expectHydrated(page);
      await scanEachWidth(page, 'dashboard with data', 'Dashboard', theme);

      await page.setViewportSize({ width: WIDTHS[0], height: 900 });
      await page.goto('/admin/alerts');
      const history = page.getByRole('region', { name: 'Alert history entries' });
      await expect(history.getByText('Webhook delivery with a bad signature').first()).toBeVisible();
      await expectHydrated(page);
      await scanEachWidth(page, 'alerts with data', 'Alert Management', theme);
      await context.close();
    });
  }
});

test('a burst of failed logins is refused with 429 and appears in the alert history', async ({ browser }) => {
  test.setTimeout(90_000);
  // Its own server: failed logins count per client address and every test here comes from 127.0.0.1; this one
  // also runs at the production limits (no RATE_LIMIT_MULTIPLIER), so the lockout itself is shown.
  const server = await startSiteServer((url) => ({ ADMIN_PASSWORD: E2E_ADMIN_PASSWORD, PUBLIC_ORIGIN: url }));
  try {
    const owner = await browser.newContext({ baseURL: server.url });
    const login = await owner.request.post('/api/admin/login', { headers: { origin: server.url }, data: { password: E2E_ADMIN_PASSWORD } });
    expect(login.status()).toBe(200);

    const attacker = await browser.newContext({ baseURL: server.url });
    const page = await attacker.newPage();
    await page.goto('/admin');
    for (let i = 0; i < 5; i++) {
      await page.getByLabel(/^Password/).fill(`guess-${i}`);
      await page.getByRole('button', { name: 'Sign In' }).click();
      await expect(page.getByText('Incorrect password')).toBeVisible();
      await expect(page.getByLabel(/^Password/)).toHaveValue('');
    }
    await page.getByLabel(/^Password/).fill('guess-5');
    await page.getByRole('button', { name: 'Sign In' }).click();
    await expect(page.getByText('Too many failed login attempts. Please wait and try again later.')).toBeVisible();
    await expect(page.getByText(/^Try again in \d+ minutes?/)).toBeVisible();
    await expect(page.getByRole('button', { name: 'Sign In' })).toBeDisabled();
    await attacker.close();

    const ownerPage = await owner.newPage();
    await ownerPage.goto('/admin/alerts');
    const history = ownerPage.getByRole('region', { name: 'Alert history entries' });
    await expect(history.getByText('Burst of failed admin logins', { exact: true })).toBeVisible();
    await expect(history.getByText(/wrong admin passwords from/)).toBeVisible();
    await history.getByRole('button', { name: /^Acknowledge/ }).first().click();
    await expect(history.getByText('Acknowledged').first()).toBeVisible();
    await owner.close();
  } finally {
    await server.stop();
  }
});
