import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { crc32, deflateSync } from 'node:zlib';
import { expect, test, type Page } from '../support/test';
import { adminGet, adminLogin, adminSend } from '../support/admin-api';
import { expectNoSeriousA11yViolations } from '../support/axe';
import { E2E_ADMIN_PASSWORD } from '../support/env';
import { watchPageErrors } from '../support/page-errors';
import { startSiteServer } from '../support/servers';

/*
 * Issue 24 from a real browser: each accepted image type is uploaded on the Media screen and appears in the grid,
 * each refused kind is explained in words and stores nothing (a truncated file, whose header is sound, fails while
 * processed and says so), the post form's upload fills the featured image, and
 * the published post serves it as <picture> with AVIF/WebP srcsets without a layout shift. Issue 32: an upload answers
 * while its sizes are still being made; the card and the file's line in the upload list follow it to ready. Issue 54:
 * a batch dropped at once on a server whose image queue is full lands whole, waiting out each 503's Retry-After.
 */

const FIXTURES = path.join(import.meta.dirname, '../fixtures/media');
const fixture = (name: string) => path.join(FIXTURES, name);
type MediaList = { media: Array<{ id: string; filename: string; url: string; ogUrl: string; state: string }>; nextCursor: string | null };
const READY = 'Ready: every size is made.';

async function choose(page: Page, file: string, nth = 0) {
  // The visible control is the button; the file input behind it is what a chooser fills.
  await page.locator('input[type=file]').nth(nth).setInputFiles(fixture(file));
}

/** The line of the Media screen's upload list for `file`. */
const uploadRow = (page: Page, file: string) => page.getByRole('list', { name: 'Uploads' }).getByRole('listitem').filter({ has: page.getByText(file, { exact: true }) });

/** A small PNG of one colour (distinct colours, distinct images: the library stores each content once). */
function solidPng(width: number, height: number, [r, g, b]: readonly [number, number, number]): Buffer {
  const row = Buffer.concat([Buffer.from([0]), Buffer.alloc(width * 3).map((_, i) => [r, g, b][i % 3]!)]);
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const size = Buffer.alloc(4);
    size.writeUInt32BE(data.length);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body));
    return Buffer.concat([size, body, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8); // 8-bit RGB
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk('IHDR', header), chunk('IDAT', deflateSync(Buffer.concat(Array(height).fill(row)))), chunk('IEND', Buffer.alloc(0))]);
}

test('the Media screen uploads every accepted type, follows each to ready, and refuses the rest in words, storing nothing', async ({ page }) => {
  // Six images made one after the other (MEDIA_JOBS=1): up to 10 s each on a busy 2-core machine.
  test.setTimeout(120_000);
  const errors = watchPageErrors(page);
  await adminLogin(page.request);
  await page.goto('/admin/media');
  await expect(page.getByRole('heading', { level: 1, name: 'Media' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Choose images' })).toBeVisible();

  const grid = page.getByRole('list', { name: 'Images' });
  for (const file of ['phone-photo.jpg', 'logo.png', 'photo.webp', 'photo.avif', 'drawing.gif']) {
    await choose(page, file);
    const card = grid.getByRole('listitem').filter({ has: page.getByText(file, { exact: true }) });
    await expect(card).toBeVisible();
    // The upload answers before its sizes are made; the card and the file's line in the upload list follow it to ready.
    await expect(card.locator('img')).toBeVisible({ timeout: 20_000 });
    await expect(uploadRow(page, file)).toContainText('Ready', { timeout: 20_000 });
  }
  const stored = (await adminGet<MediaList>(page.request, '/api/admin/media')).media;
  expect(stored.filter((m) => m.state !== 'ready')).toEqual([]);

  for (const [file, message] of [
    ['notes.jpg', 'Only JPEG, PNG, WebP, AVIF and GIF images are accepted.'],
    ['script.svg', /SVG images are not accepted/],
    ['bomb.png', /too many pixels/],
  ] as const) {
    await choose(page, file);
    await expect(uploadRow(page, file)).toContainText(message);
  }
  expect((await adminGet<MediaList>(page.request, '/api/admin/media')).media.length).toBe(stored.length);

  // A truncated file has a sound header: it is stored, and its processing fails. Its line and its card say why, and
  // the card still deletes it.
  const unreadable = 'The image could not be read: the file is corrupt or incomplete.';
  await choose(page, 'truncated.jpg');
  await expect(uploadRow(page, 'truncated.jpg')).toContainText(`Failed: its sizes could not be made. ${unreadable}`, { timeout: 20_000 });
  const broken = grid.getByRole('listitem').filter({ has: page.getByText('truncated.jpg', { exact: true }) });
  await expect(broken.getByRole('status')).toContainText(unreadable);
  await broken.getByRole('button', { name: 'Delete truncated.jpg' }).click();
  // The card leaves at once (optimistically); the server's state is read once its answer to the screen's DELETE is in.
  const deleted = page.waitForResponse((r) => r.request().method() === 'DELETE' && new URL(r.url()).pathname.startsWith('/api/admin/media/'));
  await page.getByRole('alertdialog').getByRole('button', { name: 'Delete' }).click();
  await expect(broken).toHaveCount(0);
  expect((await deleted).status()).toBe(204);
  expect((await adminGet<MediaList>(page.request, '/api/admin/media')).media.length).toBe(stored.length);

  // What visitors get of the phone photo: AVIF at the right type, no GPS (a JPEG's EXIF would start with "Exif").
  const photo = stored.find((m) => m.filename === 'phone-photo.jpg')!;
  const served = await page.request.get(photo.url.replace(/-(\d+)x\d+\.jpg$/, '-$1.avif'));
  expect(served.headers()['content-type']).toBe('image/avif');
  expect(served.headers()['cache-control']).toBe('public, max-age=31536000, immutable');
  const jpeg = await (await page.request.get(photo.url)).body();
  expect(jpeg.includes(Buffer.from('Exif'))).toBe(false);
  // The refusals are the 400s the test asked for (the SVG is refused before sending); nothing else failed.
  const unexpected = errors.problems.filter((p) => !p.endsWith('/api/admin/media') && !/status of 400/.test(p));
  expect(unexpected).toEqual([]);
  expect(errors.problems.filter((p) => p.startsWith('http 400'))).toHaveLength(2);
});

test('an image uploaded on the post form is the post’s hero: <picture> with srcset, width and height, no layout shift', async ({ page }) => {
  test.setTimeout(60_000);
  await adminLogin(page.request);
  await page.goto('/admin/posts/create');
  await choose(page, 'phone-photo.jpg', 0);
  const field = page.getByLabel(/^Featured image URL/);
  await expect(field).toHaveValue(/^\/media\/[0-9a-f]{24}-1600x1067\.jpg$/);
  const url = await field.inputValue();
  // The field is filled as soon as the original is stored; the post's <picture> below lists the sizes once made.
  await expect(page.getByRole('status').filter({ hasText: READY })).toBeVisible({ timeout: 20_000 });

  const title = `Uploaded hero ${Date.now()}`;
  const created = await adminSend<{ id: string; slug: string }>(page.request, 'POST', '/api/admin/posts', {
    title,
    excerpt: 'An excerpt that is long enough for the rules of the blog.',
    content: `<p>${'A paragraph long enough to be stored as a post of the blog. '.repeat(5)}</p>`,
    author: 'Tri-Valley AI Team',
    category: 'AI Automation',
    metaDescription: 'A post whose hero image was uploaded to the media library from the post form.',
    featuredImage: url,
  });
  expect(created.status).toBe(201);
  expect((await adminSend(page.request, 'POST', `/api/admin/posts/${created.body.id}/publish`)).status).toBe(200);

  await page.setViewportSize({ width: 390, height: 844 });
  await page.addInitScript(() => {
    (window as unknown as { __cls: number }).__cls = 0;
    new PerformanceObserver((list) => {
      for (const e of list.getEntries() as Array<PerformanceEntry & { value: number; hadRecentInput: boolean }>) if (!e.hadRecentInput) (window as unknown as { __cls: number }).__cls += e.value;
    }).observe({ type: 'layout-shift', buffered: true });
  });
  await page.goto(`/blog/${created.body.slug}`);
  const hero = page.locator('picture img[fetchpriority="high"]');
  await expect(hero).toHaveAttribute('width', '1600');
  await expect(hero).toHaveAttribute('height', '1067');
  await expect(page.locator('picture source[type="image/avif"]').first()).toHaveAttribute('srcset', /-480\.avif 480w, .*-960\.avif 960w, .*-1600\.avif 1600w/);
  await expect.poll(() => hero.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);
  expect(await hero.evaluate((img: HTMLImageElement) => img.currentSrc)).toMatch(/-(480|960)\.avif$/);
  expect(await page.evaluate(() => (window as unknown as { __cls: number }).__cls)).toBe(0);

  // Still used by the post: the library refuses to delete it.
  const media = (await adminGet<MediaList>(page.request, '/api/admin/media')).media.find((m) => m.url === url)!;
  expect((await adminSend(page.request, 'DELETE', `/api/admin/media/${media.id}`)).status).toBe(409);
});

test('a batch of 12 images dropped at once all land, the upload waiting out the busy queue (503 media_busy, Retry-After)', async ({ browser }) => {
  test.setTimeout(180_000);
  // A server whose image queue is as small as it gets: two images processed at once, none waiting; a third is a 503.
  const server = await startSiteServer((url) => ({ ADMIN_PASSWORD: E2E_ADMIN_PASSWORD, PUBLIC_ORIGIN: url, MEDIA_JOBS: '2', MEDIA_QUEUE: '0' }));
  const shots = '/tmp/shots-media';
  mkdirSync(shots, { recursive: true });
  try {
    const context = await browser.newContext({ baseURL: server.url });
    // 'system': the colours follow the emulated colour scheme, so both themes are seen mid-batch.
    await context.addInitScript(() => localStorage.setItem('theme', 'system'));
    const login = await context.request.post('/api/admin/login', { headers: { origin: server.url }, data: { password: E2E_ADMIN_PASSWORD } });
    expect(login.status()).toBe(200);
    const page = await context.newPage();
    const answers: number[] = [];
    page.on('response', (r) => {
      if (r.request().method() === 'POST' && new URL(r.url()).pathname === '/api/admin/media') answers.push(r.status());
    });
    await page.goto('/admin/media');
    // A fresh server's first page: the admin remote is read from its release store the first time (slow on a busy machine).
    await expect(page.getByRole('heading', { level: 1, name: 'Media' })).toBeVisible({ timeout: 30_000 });
    await expect(page.getByText(/No images yet/)).toBeVisible();

    const names = Array.from({ length: 12 }, (_, i) => `salon-${String(i + 1).padStart(2, '0')}.png`);
    const files = names.map((name, i) => ({ name, data: solidPng(96, 64, [20 * i, 255 - 20 * i, (70 * i) % 256]).toString('base64') }));
    // Dropped on the zone as a person drags them from a folder: one DataTransfer with every file.
    const transfer = await page.evaluateHandle((list) => {
      const dt = new DataTransfer();
      for (const f of list) dt.items.add(new File([Uint8Array.from(atob(f.data), (c) => c.charCodeAt(0))], f.name, { type: 'image/png' }));
      return dt;
    }, files);
    const zone = page.getByRole('button', { name: 'Choose images' }).locator('..');
    await zone.dispatchEvent('dragover', { dataTransfer: transfer });
    await zone.dispatchEvent('drop', { dataTransfer: transfer });

    const uploads = page.getByRole('list', { name: 'Uploads' });
    await expect(uploads.getByRole('listitem')).toHaveCount(12);
    // Mid-batch: a file waits out the server's Retry-After, and says so.
    await expect(uploads.getByText(/Waiting to retry in \d+ s \(the server is busy with other images\)/).first()).toBeVisible({ timeout: 20_000 });
    const panel = page.getByRole('region', { name: 'Upload' });
    await panel.screenshot({ path: `${shots}/batch-light-desktop.png` });
    await page.emulateMedia({ colorScheme: 'dark' });
    await expect(page.locator('html')).toHaveClass(/dark/);
    await panel.screenshot({ path: `${shots}/batch-dark-desktop.png` });
    await page.setViewportSize({ width: 390, height: 844 });
    await panel.screenshot({ path: `${shots}/batch-dark-390.png` });
    await expectNoSeriousA11yViolations(page, 'media batch upload, dark, 390 px');
    await page.emulateMedia({ colorScheme: 'light' });
    await expect(page.locator('html')).not.toHaveClass(/dark/);
    await panel.screenshot({ path: `${shots}/batch-light-390.png` });

    // Every file ends ready, none lost; the live summary counts them.
    for (const name of names) await expect(uploadRow(page, name)).toContainText('Ready', { timeout: 90_000 });
    await expect(page.getByRole('status').filter({ hasText: '12 of 12 ready' })).toBeVisible();
    await panel.screenshot({ path: `${shots}/batch-done-light-390.png` });
    expect(answers.filter((s) => s === 503).length, 'the tiny queue refused some uploads for a while').toBeGreaterThan(0);
    expect(answers.filter((s) => s === 201)).toHaveLength(12);
    const grid = page.getByRole('list', { name: 'Images' });
    for (const name of names) await expect(grid.getByRole('listitem').filter({ has: page.getByText(name, { exact: true }) })).toBeVisible();
    const stored = (await adminGet<MediaList>(context.request, '/api/admin/media?limit=50')).media;
    expect(stored.map((m) => m.filename).sort()).toEqual(names);
    expect(stored.filter((m) => m.state !== 'ready')).toEqual([]);
    await context.close();
  } finally {
    await server.stop();
  }
});
