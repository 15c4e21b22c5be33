import { expect, test as base, type Page } from '@playwright/test';

export * from '@playwright/test';

/** How long a page may take to hydrate before a test goes on anyway (a remote that is down never hydrates). */
const HYDRATION_WAIT_MS = 10_000;

/**
 * Server-rendered pages are visible before their code runs. A test that types or clicks right away would act on
 * HTML that no code handles yet, so every navigation waits until the page's route is live
 * (`<html data-hydrated>`, set by RemoteRoutes) when the server rendered it (`#root[data-ssr]`). The shell also
 * replays what a visitor does before that (its own tests); these tests exercise the hydrated page.
 */
async function waitForHydration(page: Page): Promise<void> {
  await page
    .waitForFunction(() => !document.querySelector('#root[data-ssr]') || document.documentElement.dataset.hydrated === 'true', undefined, {
      timeout: HYDRATION_WAIT_MS,
    })
    .catch(() => undefined);
}

/**
 * Asserts that the page's route is live in the browser (`<html data-hydrated="true">`): its code has run and hydrated
 * the server's HTML, or rendered the page. Unlike the wait after each navigation, it fails when that never happens.
 */
export async function expectHydrated(page: Page, timeout = HYDRATION_WAIT_MS): Promise<void> {
  await expect(page.locator('html'), "the page's code has made it live").toHaveAttribute('data-hydrated', 'true', { timeout });
}

function patch(page: Page): void {
  const goto = page.goto.bind(page);
  const reload = page.reload.bind(page);
  const goBack = page.goBack.bind(page);
  const goForward = page.goForward.bind(page);
  page.goto = async (...args) => {
    const res = await goto(...args);
    // `waitUntil: 'commit'` asks for the page as it arrives: a test of what happens before hydration.
    if (args[1]?.waitUntil !== 'commit') await waitForHydration(page);
    return res;
  };
  page.reload = async (...args) => {
    const res = await reload(...args);
    await waitForHydration(page);
    return res;
  };
  page.goBack = async (...args) => {
    const res = await goBack(...args);
    await waitForHydration(page);
    return res;
  };
  page.goForward = async (...args) => {
    const res = await goForward(...args);
    await waitForHydration(page);
    return res;
  };
}

/** Playwright's `test`, with every page of the test waiting for hydration after it navigates. */
export const test = base.extend({
  context: async ({ context }, use) => {
    context.on('page', patch);
    await use(context);
  },
});
