import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import sharp from 'sharp';
import { mediaItemSchema, mediaListSchema, MEDIA_MAX_BYTES } from '@site/contracts/media';
import { ADMIN_ENV, adminCookie } from '../../test-support/admin-session';
import { testBackends, uniqueSchema } from '../../test-support/databases';
import { animatedGif, framesOnCanvasGif, jpegSideways, jpegWithGps, pngBombHeader, samples } from '../../test-support/media-fixtures';
import { call, sendWebhook, TEST_ORIGIN } from '../../test-support/site-client';
import { readingLoopbackSites, startTestServer, type TestServer } from '../../test-support/test-server';

const article = (title: string, featuredImage: string, ogImage?: string) => ({
  title,
  excerpt: 'An excerpt long enough for the rules of the blog.',
  content: `<h2>Body</h2><p>${'Words of a post that is long enough to be stored. '.repeat(4)}</p>`,
  author: 'Admin',
  category: 'AI Automation',
  metaDescription: 'A meta description that is long enough for the rules of the blog posts.',
  featuredImage,
  ...(ogImage ? { ogImage } : {}),
});

/*
 * Issue 24's media library over HTTP: every accepted type is stored with its variants, every refused kind answers a
 * clear 4xx and stores nothing, metadata (GPS) never reaches a visitor, and an image in use cannot be deleted.
 */
describe.each(testBackends().map((b) => b.name))('media library (%s)', (backend) => {
  let server: TestServer;
  let cookie: string;
  const schema = uniqueSchema();

  beforeAll(async () => {
    server = await startTestServer({
      env: { ...ADMIN_ENV, PUBLIC_ORIGIN: TEST_ORIGIN, ...(backend === 'postgres' ? { DATABASE_URL: process.env.TEST_DATABASE_URL } : {}) },
      deps: backend === 'postgres' ? { database: { pgSchema: schema } } : {},
    });
    cookie = await adminCookie(server);
  });
  afterAll(async () => {
    await server.close();
  });

  async function upload(bytes: Buffer, filename: string, type: string, alt?: string) {
    const form = new FormData();
    form.set('file', new Blob([new Uint8Array(bytes)], { type }), filename);
    if (alt !== undefined) form.set('alt', alt);
    const res = await fetch(`${server.url}/api/admin/media`, { method: 'POST', headers: { origin: TEST_ORIGIN, cookie }, body: form });
    const text = await res.text();
    return { status: res.status, json: text ? (JSON.parse(text) as unknown) : undefined, headers: res.headers };
  }
  const listed = async () => mediaListSchema.parse((await call(server.url, '/api/admin/media?limit=100', { cookie })).json).media;
  /** The item once the media-variants job has made what was waiting (the upload answers before). */
  const processed = async (id: string) => {
    await server.instance.services.media.processWaiting();
    return mediaItemSchema.parse((await call(server.url, `/api/admin/media/${id}`, { cookie })).json);
  };

  it('stores a phone JPEG without its EXIF (GPS), with AVIF, WebP and JPEG variants never wider than 1600', async () => {
    const photo = await jpegWithGps(2000, 1500);
    expect((await sharp(photo).metadata()).exif).toBeDefined();
    const res = await upload(photo, 'IMG_0001.JPG', 'image/jpeg', 'A green field');
    expect(res.status).toBe(201);
    // The upload answers when the original is stored and checked; the variants follow.
    const answered = mediaItemSchema.parse(res.json);
    expect(answered).toMatchObject({ width: 1600, height: 1200, state: 'processing', variants: [] });
    const media = await processed(answered.id);
    expect(media).toMatchObject({ width: 1600, height: 1200, format: 'jpeg', alt: 'A green field', state: 'ready', url: answered.url });
    expect(media.url).toMatch(/^\/media\/[0-9a-f]{24}-1600x1200\.jpg$/);
    const widths = [...new Set(media.variants.filter((v) => v.format !== 'jpg' || v.width !== 1200).map((v) => v.width))];
    expect(widths).toEqual(expect.arrayContaining([480, 960, 1600]));
    for (const format of ['avif', 'webp', 'jpg']) expect(media.variants.filter((v) => v.format === format && v.height !== 630).map((v) => v.width).sort()).toEqual([1600, 480, 960]);

    const types = { avif: 'image/avif', webp: 'image/webp', jpg: 'image/jpeg' } as Record<string, string>;
    const sharpFormat = { avif: 'heif', webp: 'webp', jpg: 'jpeg' } as Record<string, string>;
    for (const variant of [...media.variants, { url: media.url, width: 1600, height: 1200, format: 'jpg' }]) {
      const file = await fetch(`${server.url}${variant.url}`);
      expect(file.status, variant.url).toBe(200);
      expect(file.headers.get('content-type')).toBe(types[variant.format]);
      expect(file.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
      const bytes = Buffer.from(await file.arrayBuffer());
      const meta = await sharp(bytes).metadata();
      expect(meta.format).toBe(sharpFormat[variant.format]);
      expect(meta.width).toBe(variant.width);
      // No EXIF, XMP or IPTC at all: the GPS position and the camera are gone.
      expect(meta.exif).toBeUndefined();
      expect(meta.xmp).toBeUndefined();
      expect(meta.iptc).toBeUndefined();
      expect(bytes.includes(Buffer.from('Secret Model X'))).toBe(false);
      const again = await fetch(`${server.url}${variant.url}`, { headers: { 'if-none-match': file.headers.get('etag')! } });
      expect(again.status).toBe(304);
    }
    const og = media.variants.find((v) => v.url === media.ogUrl)!;
    expect(og).toMatchObject({ width: 1200, height: 630 });
    expect(await sharp(Buffer.from(await (await fetch(`${server.url}${media.ogUrl}`)).arrayBuffer())).metadata()).toMatchObject({ format: 'jpeg', width: 1200, height: 630 });

    // The same bytes again: the stored image, not a second copy.
    const again = await upload(photo, 'copy.jpg', 'image/jpeg');
    expect(again.status).toBe(200);
    expect(mediaItemSchema.parse(again.json).id).toBe(media.id);
  });

  it('turns an image by its EXIF orientation', async () => {
    const res = await upload(await jpegSideways(600, 400), 'sideways.jpeg', 'image/jpeg');
    expect(res.status).toBe(201);
    // Planned from the header as processing makes it.
    expect(mediaItemSchema.parse(res.json)).toMatchObject({ width: 400, height: 600 });
    expect(await processed(mediaItemSchema.parse(res.json).id)).toMatchObject({ width: 400, height: 600, state: 'ready' });
  });

  it.each([
    ['png', 'logo.png', 'image/png', 800, 'png'],
    ['webp', 'photo.webp', 'image/webp', 1000, 'webp'],
    ['avif', 'photo.avif', 'image/avif', 640, 'heif'],
    ['gif', 'anim.gif', 'image/gif', 300, 'gif'],
  ] as const)('accepts %s, never enlarged, served in its own format too', async (kind, filename, type, width, sharpFormat) => {
    const res = await upload(await samples[kind](), filename, type);
    expect(res.status).toBe(201);
    const media = await processed(mediaItemSchema.parse(res.json).id);
    expect(media.width).toBe(width);
    expect(Math.max(...media.variants.filter((v) => v.height !== 630).map((v) => v.width))).toBe(width);
    const main = await fetch(`${server.url}${media.url}`);
    expect(main.headers.get('content-type')).toBe(type);
    expect((await sharp(Buffer.from(await main.arrayBuffer())).metadata()).format).toBe(sharpFormat);
  });

  it('keeps an animated GIF animated: WebP and GIF variants with every frame, no still AVIF, the first frame for Open Graph', async () => {
    const res = await upload(await animatedGif(640, 360, 4), 'spinner.gif', 'image/gif');
    expect(res.status).toBe(201);
    const media = await processed(mediaItemSchema.parse(res.json).id);
    expect(media).toMatchObject({ width: 640, height: 360, format: 'gif' });
    expect(media.variants.some((v) => v.format === 'avif')).toBe(false);
    const widths = (format: string) => media.variants.filter((v) => v.format === format).map((v) => [v.width, v.height]);
    expect(widths('webp')).toEqual([
      [480, 270],
      [640, 360],
    ]);
    expect(widths('gif')).toEqual(widths('webp'));
    for (const variant of media.variants.filter((v) => v.format !== 'jpg')) {
      const file = await fetch(`${server.url}${variant.url}`);
      expect(file.headers.get('content-type'), variant.url).toBe(variant.format === 'gif' ? 'image/gif' : 'image/webp');
      const meta = await sharp(Buffer.from(await file.arrayBuffer()), { animated: true }).metadata();
      expect([meta.pages, meta.width, meta.pageHeight], variant.url).toEqual([4, variant.width, variant.height]);
    }
    const og = await fetch(`${server.url}${media.ogUrl}`);
    expect(og.headers.get('content-type')).toBe('image/jpeg');
    expect((await sharp(Buffer.from(await og.arrayBuffer())).metadata()).pages ?? 1).toBe(1);
  });

  it('refuses an animation whose frames together pass the pixel limit, storing nothing', async () => {
    const before = (await listed()).length;
    // 1000 x 1000 x 60 frames: 60 megapixels decoded, more than the 50 allowed; each frame's bytes hold one pixel.
    const res = await upload(framesOnCanvasGif(1000, 1000, 60), 'long.gif', 'image/gif');
    expect(res.status).toBe(400);
    expect(res.json).toMatchObject({ error: { code: 'too_many_pixels', message: expect.stringContaining('all its frames together') } });
    expect((await listed()).length).toBe(before);
  });

  const truncatedJpeg = async () => {
    const whole = await jpegWithGps(1200, 900);
    return whole.subarray(0, Math.floor(whole.length / 2));
  };
  const bigJpeg = async (bytes: number) => {
    const head = await sharp(await samples.png()).jpeg().toBuffer();
    return Buffer.concat([head, Buffer.alloc(bytes - head.length, 7)]);
  };
  it.each([
    ['a text file named .jpg', async () => Buffer.from('just some text, not an image'), 'notes.jpg', 'image/jpeg', 400, 'unsupported_type'],
    ['an SVG (scriptable)', async () => Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'), 'x.svg', 'image/svg+xml', 400, 'svg_refused'],
    ['an SVG under another name', async () => Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'), 'x.png', 'image/png', 400, 'unsupported_type'],
    ['a PNG named .jpg', () => samples.png(), 'photo.jpg', 'image/jpeg', 400, 'type_mismatch'],
    ['a PNG declared as JPEG', () => samples.png(), 'photo.png', 'image/jpeg', 400, 'type_mismatch'],
    ['a PDF', async () => Buffer.from('%PDF-1.7\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n'), 'doc.pdf', 'application/pdf', 400, 'unsupported_type'],
    ['an empty file', async () => Buffer.alloc(0), 'empty.png', 'image/png', 400, 'empty_file'],
    ['a 20000x20000 PNG (decompression bomb)', async () => pngBombHeader(), 'bomb.png', 'image/png', 400, 'too_many_pixels'],
    ['a file over 10 MB (Content-Length)', () => bigJpeg(MEDIA_MAX_BYTES + 200 * 1024), 'big.jpg', 'image/jpeg', 413, 'payload_too_large'],
    ['a file over 10 MB (counted while streaming)', () => bigJpeg(MEDIA_MAX_BYTES + 10 * 1024), 'big.jpg', 'image/jpeg', 413, 'payload_too_large'],
  ] as const)('refuses %s with a clear 4xx and stores nothing', async (_label, make, filename, type, status, code) => {
    const before = await listed();
    const res = await upload(await make(), filename, type);
    expect(res.status).toBe(status);
    expect(res.json).toMatchObject({ error: { code } });
    expect((res.json as { error: { message: string } }).error.message.length).toBeGreaterThan(10);
    expect((await listed()).length).toBe(before.length);
  });

  it('stores a JPEG cut short whose header reads well, then says it failed in words, keeping no file', async () => {
    const res = await upload(await truncatedJpeg(), 'cut.jpg', 'image/jpeg');
    expect(res.status).toBe(201);
    const media = await processed(mediaItemSchema.parse(res.json).id);
    expect(media).toMatchObject({ state: 'failed', error: 'The image could not be read: the file is corrupt or incomplete.', variants: [] });
    expect((await fetch(`${server.url}${media.url}`)).status).toBe(404);
    // Uploaded again, it is tried again (and fails again the same way).
    const again = await upload(await truncatedJpeg(), 'cut.jpg', 'image/jpeg');
    expect(again.status).toBe(200);
    expect(mediaItemSchema.parse(again.json)).toMatchObject({ id: media.id, state: 'processing' });
    expect(await processed(media.id)).toMatchObject({ state: 'failed' });
  });

  it('refuses a body that is not multipart, and anyone without a session', async () => {
    expect((await call(server.url, '/api/admin/media', { method: 'POST', cookie, body: { file: 'x' } })).status).toBe(415);
    const form = new FormData();
    form.set('file', new Blob([new Uint8Array(await samples.gif())], { type: 'image/gif' }), 'a.gif');
    expect((await fetch(`${server.url}/api/admin/media`, { method: 'POST', headers: { origin: TEST_ORIGIN }, body: form })).status).toBe(401);
  });

  it('edits alt text, says where an image is used, and refuses to delete it while used (409)', async () => {
    const media = mediaItemSchema.parse((await upload(await samples.webp(), 'hero.webp', 'image/webp')).json);
    const patched = await call(server.url, `/api/admin/media/${media.id}`, { method: 'PATCH', cookie, body: { alt: '  Our office  ' } });
    expect(patched.status).toBe(200);
    expect(mediaItemSchema.parse(patched.json).alt).toBe('Our office');

    const post = await call(server.url, '/api/admin/posts', { method: 'POST', cookie, body: article('A post with an uploaded image', media.url, media.ogUrl) });
    expect(post.status).toBe(201);
    const postId = (post.json as { id: string }).id;
    const item = (await listed()).find((m) => m.id === media.id)!;
    expect(item.usedBy).toEqual(expect.arrayContaining([expect.objectContaining({ id: postId, field: 'featuredImage' }), expect.objectContaining({ id: postId, field: 'ogImage' })]));

    const refused = await call(server.url, `/api/admin/media/${media.id}`, { method: 'DELETE', cookie });
    expect(refused.status).toBe(409);
    expect(refused.json).toMatchObject({ error: { code: 'media_in_use' } });
    expect((await fetch(`${server.url}${media.url}`)).status).toBe(200);

    // A deleted post can be restored for 30 days, with its images: it still uses this one.
    expect((await call(server.url, `/api/admin/posts/${postId}`, { method: 'DELETE', cookie })).status).toBeLessThan(300);
    expect((await listed()).find((m) => m.id === media.id)!.usedBy).toEqual([
      { id: postId, title: 'A post with an uploaded image', field: 'featuredImage', deleted: true },
      { id: postId, title: 'A post with an uploaded image', field: 'ogImage', deleted: true },
    ]);
    const whileRestorable = await call(server.url, `/api/admin/media/${media.id}`, { method: 'DELETE', cookie });
    expect(whileRestorable.status).toBe(409);
    expect(whileRestorable.json).toMatchObject({ error: { code: 'media_in_use', message: expect.stringContaining('(deleted, can be restored for 30 days)') } });
    // Restored, given other images, deleted again: its last version no longer uses the image.
    expect((await call(server.url, `/api/admin/posts/${postId}/undelete`, { method: 'POST', cookie })).status).toBe(201);
    const restored = (await call(server.url, `/api/admin/posts/${postId}`, { cookie })).json as { updatedAt: string };
    const edited = await call(server.url, `/api/admin/posts/${postId}`, {
      method: 'PUT',
      cookie,
      body: { ...article('A post with an uploaded image', '/images/blog/automation.svg'), expectedUpdatedAt: restored.updatedAt },
    });
    expect(edited.status).toBe(200);
    expect((await listed()).find((m) => m.id === media.id)!.usedBy).toEqual([]);
    expect((await call(server.url, `/api/admin/posts/${postId}`, { method: 'DELETE', cookie })).status).toBeLessThan(300);
    expect((await call(server.url, `/api/admin/media/${media.id}`, { method: 'DELETE', cookie })).status).toBe(204);
    expect((await fetch(`${server.url}${media.url}`)).status).toBe(404);
    expect((await listed()).some((m) => m.id === media.id)).toBe(false);
  });

  it('answers 404 for names that are not media files', async () => {
    for (const name of ['abc.jpg', '..%2f..%2fetc%2fpasswd', `${'a'.repeat(24)}-480.svg`, `${'a'.repeat(24)}-480.jpg`]) {
      expect((await fetch(`${server.url}/media/${name}`)).status).toBe(404);
    }
  });
});

/*
 * The webhook's `storeImages: true`: n8n keeps sending image URLs; the server fetches each once, through the
 * analysis' SSRF-safe fetcher (loopback allowed only by the test option), and the post points at the stored copy.
 */
describe.each(testBackends().map((b) => b.name))('webhook images stored as media (%s)', (backend) => {
  const SECRET = 'media-webhook-secret';
  let server: TestServer;
  let images: Server;
  let imagesUrl: string;
  let cookie: string;
  let photoRequests = 0;
  const schema = uniqueSchema();

  beforeAll(async () => {
    const photo = await jpegWithGps(1000, 700);
    images = createServer((req, res) => {
      if (req.url === '/photo.jpg') {
        photoRequests += 1;
        res.writeHead(200, { 'content-type': 'image/jpeg' }).end(photo);
      } else if (req.url === '/fake.jpg') res.writeHead(200, { 'content-type': 'image/jpeg' }).end('not an image at all');
      else res.writeHead(200, { 'content-type': 'text/html' }).end('<p>a page</p>');
    });
    await new Promise<void>((resolve) => images.listen(0, '127.0.0.1', resolve));
    imagesUrl = `http://127.0.0.1:${(images.address() as AddressInfo).port}`;
    server = await startTestServer({
      env: { ...ADMIN_ENV, PUBLIC_ORIGIN: TEST_ORIGIN, WEBHOOK_SECRET: SECRET, ...(backend === 'postgres' ? { DATABASE_URL: process.env.TEST_DATABASE_URL } : {}) },
      deps: { analysis: readingLoopbackSites(), ...(backend === 'postgres' ? { database: { pgSchema: schema } } : {}) },
    });
    cookie = await adminCookie(server);
  });
  afterAll(async () => {
    await server.close();
    await new Promise((resolve) => images.close(resolve));
  });

  const post = (title: string, image: string, storeImages?: boolean) => ({ ...article(title, image, image), ...(storeImages === undefined ? {} : { storeImages }) });

  it('fetches the image once and points the post at the stored copy and its OG JPEG', async () => {
    const res = await sendWebhook(server.url, SECRET, post('From n8n with a stored image', `${imagesUrl}/photo.jpg`, true), 'media-1');
    expect(res.status).toBe(201);
    expect(photoRequests).toBe(1);
    const { id } = res.json as { id: string };
    const stored = (await call(server.url, `/api/admin/posts/${id}`, { cookie })).json as { featuredImage: string; ogImage: string };
    expect(stored.featuredImage).toMatch(/^\/media\/[0-9a-f]{24}-1000x700\.jpg$/);
    expect(stored.ogImage).toMatch(/^\/media\/[0-9a-f]{24}-og\.jpg$/);
    await server.instance.services.media.processWaiting();
    const bytes = Buffer.from(await (await fetch(`${server.url}${stored.featuredImage}`)).arrayBuffer());
    expect((await sharp(bytes).metadata()).exif).toBeUndefined();
    expect((await listed()).find((m) => m.url === stored.featuredImage)?.usedBy.map((u) => u.id)).toContain(id);
  });

  it('leaves image URLs as they are without the option', async () => {
    const res = await sendWebhook(server.url, SECRET, post('From n8n with a linked image', `${imagesUrl}/photo.jpg`), 'media-2');
    expect(res.status).toBe(201);
    const stored = (await call(server.url, `/api/admin/posts/${(res.json as { id: string }).id}`, { cookie })).json as { featuredImage: string };
    expect(stored.featuredImage).toBe(`${imagesUrl}/photo.jpg`);
  });

  it.each([
    ['an HTML page', '/page.html', /Only JPEG, PNG, WebP, AVIF or GIF images can be read/],
    ['text sent as image/jpeg', '/fake.jpg', /Only JPEG, PNG, WebP, AVIF and GIF images are accepted/],
  ])('refuses %s with 400, saying which field, and creates nothing', async (_label, file, message) => {
    const before = (await listed()).length;
    const res = await sendWebhook(server.url, SECRET, post(`Refused image ${file}`, `${imagesUrl}${file}`, true), `media-${file}`);
    expect(res.status).toBe(400);
    expect(res.json).toMatchObject({ error: { code: 'image_import_failed' } });
    expect((res.json as { error: { message: string } }).error.message).toMatch(/featuredImage could not be stored/);
    expect((res.json as { error: { message: string } }).error.message).toMatch(message);
    expect((await listed()).length).toBe(before);
  });

  const listed = async () => mediaListSchema.parse((await call(server.url, '/api/admin/media?limit=100', { cookie })).json).media;
});
