import { toBusinessLocalInput } from '@site/contracts/post-schedule';
import { expect, test, type Page } from '../support/test';
import { adminGet, adminLogin, adminSend } from '../support/admin-api';
import { expectNoSeriousA11yViolations } from '../support/axe';
import { watchPageErrors } from '../support/page-errors';

/*
 * Issue 23 from a real browser to where the owner and the readers look: a post scheduled from the admin is absent
 * from /blog and the RSS feed while it waits, and there once its time has come, with no restart; a post edited three
 * times shows its history, the diff, and a restore of its first version reaches /blog/<slug>.
 */

/**
 * How far ahead the post is moved to be published: room for the dialog's fill, click and save on a loaded machine,
 * and the only real time the test waits. The checks of a post that waits run while it is scheduled an hour ahead.
 */
const PUBLISH_LEAD_MS = 6_000;

const stamp = Date.now();
const body = (title: string) => ({
  title,
  excerpt: 'An excerpt that is long enough for the rules of the blog.',
  content: `<h2>First words</h2><p>${'The opening paragraph of this post, as it was first written by the owner. '.repeat(3)}</p>`,
  author: 'Tri-Valley AI Team',
  category: 'AI Automation',
  metaDescription: 'A post written ahead of time, whose every save is kept in its history for the owner.',
});

type Post = { id: string; slug: string; updatedAt: string; status: string };

async function createPost(page: Page, title: string): Promise<Post> {
  await adminLogin(page.request);
  const created = await adminSend<Post>(page.request, 'POST', '/api/admin/posts', body(title));
  expect(created.status).toBe(201);
  return created.body;
}

const blogShows = async (page: Page, title: string) => {
  const html = await (await page.request.get('/blog')).text();
  return html.includes(title);
};
const feedShows = async (page: Page, slug: string) => (await (await page.request.get('/blog/rss.xml')).text()).includes(`/blog/${slug}<`);

test('a post scheduled from the admin is hidden from /blog and the feed until its time, and there after it', async ({ page }) => {
  test.setTimeout(90_000);
  const errors = watchPageErrors(page);
  const title = `Scheduled from the admin ${stamp}`;
  const post = await createPost(page, title);

  const scheduleDialog = async () => {
    await expect(page.getByRole('heading', { level: 1, name: 'Edit Post' })).toBeVisible();
    await page.getByRole('button', { name: 'Schedule', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Schedule post' });
    await expect(dialog).toBeVisible();
    const field = dialog.getByLabel('Publish on (Pacific Time (Los Angeles))');
    await expect(field).toBeFocused();
    return { dialog, field };
  };
  // The picker is read in Pacific time whatever the browser's zone; the seconds, when given, are the test's.
  const withSeconds = (at: Date) => `${toBusinessLocalInput(at)}:${String(at.getUTCSeconds()).padStart(2, '0')}`;

  await page.goto(`/admin/posts/${post.id}/edit`);
  const first = await scheduleDialog();
  await expectNoSeriousA11yViolations(page, 'schedule dialog');

  // A time already gone is refused next to the field, in words, and nothing is sent.
  await first.field.fill(toBusinessLocalInput(new Date(Date.now() - 3_600_000)));
  await first.dialog.getByRole('button', { name: 'Schedule', exact: true }).click();
  await expect(first.dialog.getByRole('alert')).toHaveText(/^The publishing time must be in the future/);

  const later = new Date(Math.ceil((Date.now() + 3_600_000) / 1000) * 1000);
  await first.field.fill(withSeconds(later));
  await first.dialog.getByRole('button', { name: 'Schedule', exact: true }).click();
  await expect(first.dialog).toBeHidden();

  // Before its time: in the admin as scheduled, nowhere public.
  await page.goto('/admin/posts?status=scheduled');
  const row = page.getByRole('listitem').filter({ hasText: title });
  await expect(row).toContainText('Scheduled for');
  expect(await blogShows(page, title)).toBe(false);
  expect(await feedShows(page, post.slug)).toBe(false);
  expect((await page.request.get(`/blog/${post.slug}`)).status()).toBe(404);

  // Moved from the admin to a few seconds ahead: the server's timer follows the new time.
  await row.getByRole('link', { name: title, exact: true }).click();
  const moved = await scheduleDialog();
  const at = new Date(Math.ceil((Date.now() + PUBLISH_LEAD_MS) / 1000) * 1000);
  await moved.field.fill(withSeconds(at));
  await moved.dialog.getByRole('button', { name: 'Schedule', exact: true }).click();
  await expect(moved.dialog).toBeHidden();
  expect(Date.now()).toBeLessThan(at.getTime());

  // At its time (the server publishes within moments): on /blog, in the feed, and its own page, without a restart.
  await expect.poll(() => blogShows(page, title), { timeout: 45_000, intervals: [250] }).toBe(true);
  const shownAt = Date.now();
  expect(shownAt).toBeGreaterThanOrEqual(at.getTime());
  expect(await feedShows(page, post.slug)).toBe(true);
  await page.goto('/blog');
  await expect(page.getByRole('heading', { name: title })).toBeVisible();
  const published = (await (await page.request.get(`/api/posts/${post.slug}`)).json()) as { publishedAt: string };
  expect(published.publishedAt).toBe(at.toISOString());
  errors.expectClean();
});

test('edit a post three times, see the diff in History, restore the first version, and read it on /blog/<slug>', async ({ page }) => {
  test.setTimeout(90_000);
  const errors = watchPageErrors(page);
  const first = `History of a post ${stamp}`;
  const post = await createPost(page, first);
  expect((await adminSend(page.request, 'POST', `/api/admin/posts/${post.id}/publish`)).status).toBe(200);

  await page.goto(`/admin/posts/${post.id}/edit`);
  const titleField = page.getByLabel(/^Title/);
  await expect(titleField).toHaveValue(first);
  for (const n of [2, 3, 4]) {
    await titleField.fill(`${first}, version ${n}`);
    if (n === 4) {
      // The content's HTML view, as an owner pasting a rewritten version would use it.
      await page.getByRole('button', { name: 'HTML', pressed: false }).click();
      await page.getByLabel(/^Content/).fill(body(first).content.replace('as it was first written', 'as rewritten later'));
    }
    const saved = page.waitForResponse((r) => r.url().endsWith(`/api/admin/posts/${post.id}`) && r.request().method() === 'PUT');
    await page.getByRole('button', { name: 'Save Changes' }).click();
    expect((await saved).status()).toBe(200);
    await expect(page.getByRole('button', { name: 'Save Changes' })).toBeEnabled();
  }
  expect(((await (await page.request.get(`/api/posts/${post.slug}`)).json()) as { title: string }).title).toBe(`${first}, version 4`);

  const history = page.getByRole('region', { name: 'History' });
  const revisions = history.getByRole('list', { name: 'Revisions' });
  // Created, published, three saves: newest first.
  await expect(revisions.getByRole('listitem')).toHaveCount(5);
  await expect(revisions.getByRole('listitem').first()).toContainText('current');
  await expect(revisions.getByRole('listitem').first()).toContainText('by Admin');
  // The newest revision is the post as it is: nothing to restore (issue 54, item 6).
  await revisions.getByRole('button', { name: /^#5 / }).click();
  await expect(history.getByRole('heading', { name: /^Revision #5/ })).toBeVisible();
  await expect(history.getByText(/^Current version/)).toBeVisible();
  await expect(history.getByRole('button', { name: 'Restore this version' })).toHaveCount(0);
  await revisions.getByRole('button', { name: /^#1 / }).click();
  await expect(history.getByRole('heading', { name: /^Revision #1/ })).toBeVisible();
  // Then and now side by side; the content's words that changed marked.
  const changed = history.getByLabel('Changed fields');
  await expect(changed).toContainText(first);
  await expect(changed).toContainText(`${first}, version 4`);
  const words = history.getByLabel('Content differences');
  await expect(words.locator('del').filter({ hasText: 'first written' })).toBeVisible();
  await expect(words.locator('ins').filter({ hasText: 'rewritten later' })).toBeVisible();
  // The saves' toasts gone first: axe reads a toast mid-animation as faint text.
  await expect(page.locator('[data-sonner-toast]')).toHaveCount(0, { timeout: 15_000 });
  await expectNoSeriousA11yViolations(page, 'History with a revision selected');

  await history.getByRole('button', { name: 'Restore this version' }).click();
  const confirm = page.getByRole('alertdialog', { name: 'Restore this version?' });
  await confirm.getByRole('button', { name: 'Restore this version' }).click();
  await expect(confirm).toBeHidden();
  await expect(titleField).toHaveValue(first);
  await expect(revisions.getByRole('listitem')).toHaveCount(6);
  await expect(revisions.getByRole('listitem').first()).toContainText('Restored revision #1');
  // Revision #1 is now the current version too: no second, empty "Restored revision #1" is offered.
  await revisions.getByRole('button', { name: /^#1 / }).click();
  await expect(history.getByRole('heading', { name: /^Revision #1/ })).toBeVisible();
  await expect(history.getByText(/^Current version/)).toBeVisible();
  await expect(history.getByRole('button', { name: 'Restore this version' })).toHaveCount(0);
  // The API refuses it as well, and records nothing.
  const listed = await adminGet<{ revisions: { id: string; number: number }[] }>(page.request, `/api/admin/posts/${post.id}/revisions`);
  const now = await adminGet<Post>(page.request, `/api/admin/posts/${post.id}`);
  const again = await adminSend<{ error: { code: string } }>(page.request, 'POST', `/api/admin/posts/${post.id}/revisions/${listed.revisions.find((r) => r.number === 1)!.id}/restore`, {
    expectedUpdatedAt: now.updatedAt,
  });
  expect(again.status).toBe(409);
  expect(again.body.error.code).toBe('revision_is_current');
  expect((await adminGet<{ total: number }>(page.request, `/api/admin/posts/${post.id}/revisions`)).total).toBe(6);

  // The reader's page: the first version, still published.
  await page.goto(`/blog/${post.slug}`);
  await expect(page.getByRole('heading', { level: 1, name: first })).toBeVisible();
  await expect(page.getByText('as it was first written').first()).toBeVisible();
  errors.expectClean();
});
