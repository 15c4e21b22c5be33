import { crc32, deflateSync } from 'node:zlib';
import { slugify } from '@site/contracts/posts';
import { expect, test, type Page } from '../support/test';
import { adminGet, adminLogin } from '../support/admin-api';
import { expectNoSeriousA11yViolations } from '../support/axe';
import { BASE_URL } from '../support/env';
import { watchPageErrors } from '../support/page-errors';

/*
 * Issue 54, item 1 from a real browser: a post written in the rich-text editor (a paragraph, a heading and a list
 * from the toolbar, a link through its form, an image from the media library with its alt text), saved, published
 * and read back as the HTML the blog serves; a paste of Word's HTML with a <script> keeps the headings and drops the
 * script, in the editor and in what is saved.
 */

const stamp = Date.now();
const LIBRARY_ALT = `Salon front window ${stamp}`;
const ALT = 'A stylist trimming a client’s hair by the front window';

type Media = { id: string; url: string; alt: string };
type PostList = { posts: Array<{ id: string; title: string; slug: string }> };

/**
 * A PNG of this run's own colour: the library stores one copy of identical bytes (a second upload answers the first
 * image, with its alt text), so a fixture another test uploads would not be this test's.
 */
function uniquePng(width = 480, height = 320): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const out = Buffer.alloc(body.length + 8);
    out.writeUInt32BE(data.length, 0);
    body.copy(out, 4);
    out.writeUInt32BE(crc32(body), body.length + 4);
    return out;
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8);
  const row = Buffer.alloc(1 + width * 3);
  for (let x = 0; x < width; x++) row.set([(stamp >> 16) & 255, (stamp >> 8) & 255, (x * 255) / width], 1 + x * 3);
  const pixels = Buffer.concat(Array.from({ length: height }, () => row));
  return Buffer.concat([Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]), chunk('IHDR', header), chunk('IDAT', deflateSync(pixels)), chunk('IEND', Buffer.alloc(0))]);
}

/** One image in the library, uploaded through the API with its alt text (as the Media screen does). */
async function uploadImage(page: Page): Promise<Media> {
  const res = await page.request.post('/api/admin/media', {
    headers: { origin: BASE_URL },
    multipart: { file: { name: `window-${stamp}.png`, mimeType: 'image/png', buffer: uniquePng() }, alt: LIBRARY_ALT },
  });
  expect(res.status(), await res.text()).toBe(201);
  return (await res.json()) as Media;
}

/** The fields around the content, valid. */
async function fillOtherFields(page: Page, title: string) {
  await page.getByLabel(/^Title/).fill(title);
  await page.getByLabel(/^Excerpt/).fill('Small automations that give a salon team back hours every week.');
  await page.getByLabel(/^Author/).fill('Tri-Valley AI Team');
  await page.getByRole('combobox', { name: /^Category/ }).selectOption('How-To Guides');
  await page.getByLabel(/^Meta description/).fill('Five simple automations that save a busy salon several hours every single week.');
}

async function postByTitle(page: Page, title: string) {
  const list = await adminGet<PostList>(page.request, `/api/admin/posts?q=${encodeURIComponent(String(stamp))}`);
  const post = list.posts.find((p) => p.title === title);
  expect(post, `the post "${title}" is stored`).toBeTruthy();
  return post!;
}

test('a post written in the rich-text editor is saved, published and served as headings, lists, a link and an image with its alt', async ({ page }) => {
  test.setTimeout(120_000);
  const errors = watchPageErrors(page);
  await adminLogin(page.request);
  const media = await uploadImage(page);
  const title = `Written in the editor ${stamp}`;

  await page.goto('/admin/posts/create');
  // The first screen of a fresh server: the admin's code, then the editor's chunk.
  await expect(page.getByRole('heading', { level: 1, name: 'Create Post' })).toBeVisible({ timeout: 20_000 });
  const editor = page.getByRole('textbox', { name: /^Content/ });
  await expect(editor).toHaveAttribute('aria-multiline', 'true', { timeout: 15_000 });
  const toolbar = page.getByRole('toolbar', { name: 'Formatting' });
  const tool = (name: string) => toolbar.getByRole('button', { name, exact: true });

  await editor.click();
  await page.keyboard.type('Reminders, rebooking and review requests pay back fastest for a salon. ');
  // Bold by its shortcut, pressed while it is on.
  await page.keyboard.press('ControlOrMeta+b');
  await expect(tool('Bold')).toHaveAttribute('aria-pressed', 'true');
  await page.keyboard.type('Start with one.');
  await page.keyboard.press('ControlOrMeta+b');
  await page.keyboard.press('Enter');

  await tool('Heading 2').click();
  await expect(tool('Heading 2')).toHaveAttribute('aria-pressed', 'true');
  await page.keyboard.type('Three quick wins');
  await page.keyboard.press('Enter');
  await tool('Bulleted list').click();
  await page.keyboard.type('Text reminders');
  await page.keyboard.press('Enter');
  await page.keyboard.type('Online booking');
  await page.keyboard.press('Enter');
  await page.keyboard.press('Enter');
  await expect(tool('Bulleted list')).toHaveAttribute('aria-pressed', 'false');

  await page.keyboard.type('Read ');
  await tool('Link').click();
  const linkForm = page.getByRole('dialog', { name: 'Add link' });
  await expect(linkForm.getByLabel('Link address')).toBeFocused();
  await linkForm.getByLabel('Link address').fill('javascript:alert(1)');
  await linkForm.getByRole('button', { name: 'Add link' }).click();
  await expect(linkForm.getByRole('alert')).toHaveText('Use an address that starts with https://, http://, mailto: or / (a page of this site).');
  await linkForm.getByLabel('Link address').fill('example.com/salon-study');
  await linkForm.getByLabel(/^Link text/).fill('the salon study');
  await linkForm.getByRole('button', { name: 'Add link' }).click();
  await expect(linkForm).toBeHidden();
  await expect(editor).toBeFocused();
  await page.keyboard.type('. ');

  await tool('Image').click();
  const picker = page.getByRole('dialog', { name: 'Insert an image' });
  await picker.getByRole('radio', { name: LIBRARY_ALT }).check();
  const alt = picker.getByLabel('Alt text');
  await expect(alt).toHaveValue(LIBRARY_ALT);
  await expectNoSeriousA11yViolations(page, 'the image picker');
  await alt.fill(ALT);
  await picker.getByRole('button', { name: 'Insert image' }).click();
  await expect(picker).toBeHidden();
  await expect(editor.locator('img')).toHaveAttribute('alt', ALT);
  await page.keyboard.type('The photo above shows the window display.');

  await expect(editor.getByRole('heading', { level: 2, name: 'Three quick wins' })).toBeVisible();
  await expect(editor.getByRole('listitem')).toHaveText(['Text reminders', 'Online booking']);
  await expect(editor.getByRole('link', { name: 'the salon study' })).toHaveAttribute('href', 'https://example.com/salon-study');
  await fillOtherFields(page, title);
  await expect(page.getByText(/^Validation failed/)).toHaveCount(0);
  await expectNoSeriousA11yViolations(page, 'the editor with content');

  // The HTML view shows what is kept, and going back keeps it all.
  await page.getByRole('button', { name: 'HTML', pressed: false }).click();
  const source = page.getByRole('textbox', { name: /^Content/ });
  await expect(source).toHaveValue(/\n<h2>Three quick wins<\/h2>\n<ul><li><p>Text reminders<\/p><\/li>/);
  await page.getByRole('button', { name: 'HTML', pressed: true }).click();
  await expect(editor.getByRole('heading', { level: 2, name: 'Three quick wins' })).toBeVisible();

  await page.getByRole('button', { name: 'Create Post', exact: true }).last().click();
  await expect(page).toHaveURL(/\/admin\/posts$/);
  const row = page.getByRole('listitem').filter({ has: page.getByRole('heading', { name: title }) });
  await row.getByRole('button', { name: /^Publish/ }).click();
  await expect(row.getByText('published', { exact: true })).toBeVisible();

  const slug = slugify(title);
  const served = (await (await page.request.get(`/api/posts/${slug}`)).json()) as { content: string };
  expect(served.content).toContain('<h2>Three quick wins</h2>');
  expect(served.content).toMatch(/<ul><li>(?:<p>)?Text reminders/);
  expect(served.content).toMatch(/<a href="https:\/\/example\.com\/salon-study"[^>]*>the salon study<\/a>/);
  expect(served.content).toContain('<strong>Start with one.</strong>');
  const img = /<img [^>]*>/.exec(served.content)?.[0] ?? '';
  expect(img).toContain(`src="${media.url}"`);
  expect(img).toContain(`alt="${ALT}"`);

  // What readers get on the post's page.
  await page.goto(`/blog/${slug}`);
  const article = page.locator('article');
  await expect(article.getByRole('heading', { level: 2, name: 'Three quick wins' })).toBeVisible();
  await expect(article.getByRole('link', { name: 'the salon study' })).toHaveAttribute('href', 'https://example.com/salon-study');
  await expect(article.getByRole('img', { name: ALT })).toBeVisible();
  errors.expectClean();
});

/** Word's clipboard HTML for two headings, a paragraph with a link, a list, its styles, its markup and a script. */
const WORD_PASTE = `<html xmlns:o="urn:schemas-microsoft-com:office:office"><head><style>p.MsoNormal{mso-style-parent:"";margin:0in}</style></head><body>
<!--StartFragment--><h1 style='mso-style-name:"Heading 1"'><span style='font-family:"Calibri Light"'>Pasted from Word<o:p></o:p></span></h1>
<p class=MsoNormal style='margin-bottom:8pt'><span style='font-size:12pt'>${'Guests book at night and expect an answer at once, so the first reply has to come from the website itself. '.repeat(2)}See <a href="https://example.com/word" class=MsoHyperlink>the guide</a>.<o:p></o:p></span></p>
<h2><span style='mso-fareast-font-family:"Times New Roman"'>A second heading</span></h2>
<p class=MsoListParagraphCxSpFirst style='mso-list:l0 level1 lfo1'><![if !supportLists]><span style='font-family:Symbol;mso-list:Ignore'>·<span>&nbsp;</span></span><![endif]>First point<o:p></o:p></p>
<p class=MsoListParagraphCxSpLast style='mso-list:l0 level1 lfo1'><![if !supportLists]><span style='font-family:Symbol;mso-list:Ignore'>·<span>&nbsp;</span></span><![endif]>Second point<o:p></o:p></p>
<script>window.__pastedScript = true</script><!--EndFragment--></body></html>`;

/** Signed in, on a new post's form, the cursor in its (empty) rich-text content. */
async function editorOnANewPost(page: Page) {
  await adminLogin(page.request);
  await page.goto('/admin/posts/create');
  const editor = page.getByRole('textbox', { name: /^Content/ });
  await expect(editor).toHaveAttribute('aria-multiline', 'true', { timeout: 20_000 });
  await editor.click();
  return editor;
}

test('pasting Word HTML with a <script> keeps the headings, list and link, drops the script, and saves without it', async ({ page }) => {
  test.setTimeout(90_000);
  const errors = watchPageErrors(page);
  const editor = await editorOnANewPost(page);
  await editor.evaluate((el, html) => {
    const data = new DataTransfer();
    data.setData('text/html', html);
    data.setData('text/plain', 'Pasted from Word');
    el.dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }));
  }, WORD_PASTE);

  await expect(editor.getByRole('heading', { level: 2, name: 'Pasted from Word' })).toBeVisible();
  await expect(editor.getByRole('heading', { level: 2, name: 'A second heading' })).toBeVisible();
  await expect(editor.getByRole('listitem')).toHaveText(['First point', 'Second point']);
  await expect(editor.getByRole('link', { name: 'the guide' })).toHaveAttribute('href', 'https://example.com/word');
  expect(await editor.evaluate((el) => el.querySelectorAll('script, style, span, [class*=Mso], [style]').length)).toBe(0);
  expect(await page.evaluate(() => (window as unknown as { __pastedScript?: boolean }).__pastedScript)).toBeUndefined();

  const title = `Pasted from Word ${stamp}`;
  await fillOtherFields(page, title);
  await page.getByRole('button', { name: 'Create Post', exact: true }).last().click();
  await expect(page).toHaveURL(/\/admin\/posts$/);
  const post = await postByTitle(page, title);
  const saved = await adminGet<{ content: string }>(page.request, `/api/admin/posts/${post.id}`);
  expect(saved.content).toContain('<h2>Pasted from Word</h2>');
  expect(saved.content).toContain('<h2>A second heading</h2>');
  expect(saved.content).toMatch(/<ul><li><p>First point<\/p><\/li><li><p>Second point<\/p><\/li><\/ul>/);
  expect(saved.content).not.toMatch(/script|style|class=|<span|mso|o:p/i);
  errors.expectClean();
});

test('the link form is a modal the keyboard, Cancel and a tap beside it all close, each time giving the text back its cursor', async ({ page }) => {
  test.setTimeout(60_000);
  const errors = watchPageErrors(page);
  const editor = await editorOnANewPost(page);
  await page.keyboard.type('Book online');
  const linkForm = page.getByRole('dialog', { name: 'Add link' });
  const address = linkForm.getByLabel('Link address');

  // Escape, then the form again at once (closed by the browser, it opens again).
  await page.keyboard.press('ControlOrMeta+k');
  await expect(address).toBeFocused();
  // The click's veil (painted before the dialog opens) has handed over to the dialog's backdrop: the page is dimmed
  // once, not twice.
  await expect(dimmingLayers(page)).resolves.toBe(1);
  await expectNoSeriousA11yViolations(page, 'the link form, light');
  await page.evaluate(() => document.documentElement.classList.add('dark'));
  await expectNoSeriousA11yViolations(page, 'the link form, dark');
  await page.evaluate(() => document.documentElement.classList.remove('dark'));
  // Modal: Tab never reaches the page behind it (past its last button the focus leaves the page, then comes back).
  for (let i = 0; i < 8; i++) {
    await page.keyboard.press('Tab');
    const outside = await page.evaluate(() => {
      const at = document.activeElement;
      return at && at !== document.body && !at.closest('dialog') ? at.outerHTML.slice(0, 80) : null;
    });
    expect(outside, 'the focus stays in the link form').toBeNull();
  }
  await address.focus();
  await page.keyboard.press('Escape');
  await expect(linkForm).toBeHidden();
  await expect(editor).toBeFocused();

  await page.keyboard.press('ControlOrMeta+k');
  await expect(address).toBeFocused();
  await address.fill('https://example.com/book');
  await linkForm.getByRole('button', { name: 'Cancel' }).click();
  await expect(linkForm).toBeHidden();
  await expect(editor).toBeFocused();
  await expect(editor.getByRole('link')).toHaveCount(0);

  // A tap on the dimmed page beside the form.
  await page.keyboard.press('ControlOrMeta+k');
  await expect(address).toBeFocused();
  await page.mouse.click(5, 5);
  await expect(linkForm).toBeHidden();
  await expect(editor).toBeFocused();
  await page.keyboard.type('!');
  await expect(editor).toContainText('Book online!');
  await expect(dimmingLayers(page)).resolves.toBe(0);
  errors.expectClean();
});

/** How many layers dim the page at its top-left corner: the open dialog's backdrop, and any veil shown there. */
function dimmingLayers(page: Page): Promise<number> {
  return page.evaluate(() => {
    const dim = (color: string) => color !== 'rgba(0, 0, 0, 0)' && color !== 'transparent';
    const dialog = document.querySelector('dialog:modal');
    const backdrop = dialog && dim(getComputedStyle(dialog, '::backdrop').backgroundColor) ? 1 : 0;
    const veils = [...document.body.children].filter((el) => {
      const style = getComputedStyle(el);
      const box = el.getBoundingClientRect();
      return style.position === 'fixed' && style.display !== 'none' && box.left <= 0 && box.top <= 0 && box.right >= innerWidth && dim(style.backgroundColor);
    }).length;
    return backdrop + veils;
  });
}
