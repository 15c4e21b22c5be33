import { expect, test } from '../support/test';
import { watchPageErrors } from '../support/page-errors';

/*
 * The API reference: /api/docs renders the served OpenAPI document in the browser with the site's own files, under
 * the site's Content-Security-Policy (a violation, a failed file or a script error fails the test).
 */

test('the API reference page renders the OpenAPI document with no CSP violation', async ({ page }) => {
  const errors = watchPageErrors(page);
  const res = await page.goto('/api/docs');
  expect(res?.status()).toBe(200);
  // An operation's summary, as the document gives it, and its method and path.
  const operation = page.locator('.opblock', { hasText: 'Published posts, newest first, one page at a time' });
  await expect(operation).toBeVisible();
  await expect(operation).toContainText('/api/posts');
  await expect(page.getByRole('heading', { name: /Tri-Valley AI Automation — API/ })).toBeVisible();
  // Opening an operation shows its parameters, read from the document.
  await operation.locator('.opblock-summary').first().click();
  await expect(operation.locator('.parameters-container')).toContainText('limit');
  errors.expectClean();
});
