import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import sharp from 'sharp';
import { MEDIA_MAX_FRAMES, MEDIA_MAX_SIDE, mediaItemSchema } from '@site/contracts/media';
import { MEDIA_MAX_STORED_HEIGHT } from '@site/contracts/media-rules';
import { ADMIN_ENV, adminCookie } from '../../test-support/admin-session';
import { testBackends, uniqueSchema } from '../../test-support/databases';
import { plainPng, samples, tinyFramesGif } from '../../test-support/media-fixtures';
import { sendWebhook, TEST_ORIGIN } from '../../test-support/site-client';
import { readingLoopbackSites, startTestServer, type TestServer } from '../../test-support/test-server';

/** A JPEG of noise (a new one each call): at 600 px its variants still take seconds of encoding (AVIF of noise is the
 * slowest case), far longer than the next requests of the test; 1200 px cost ~15 CPU-s each for nothing more. */
const noiseJpeg = (side: number) =>
  sharp({ create: { width: side, height: side, channels: 3, background: '#000', noise: { type: 'gaussian', mean: 128, sigma: 50 } } })
    .jpeg({ quality: 70 })
    .toBuffer();

/*
 * Issue 32: no single image can take the server's CPU or memory from other visitors. Limits every stored format can
 * hold, read from the header (400 naming the limit, never the encoder's 500), and a bounded processing pool whose
 * queue answers 503 with Retry-After when full, while the server keeps answering.
 */
describe.each(testBackends().map((b) => b.name))('media limits and processing pool (%s)', (backend) => {
  const SECRET = 'media-limits-webhook-secret';
  let server: TestServer;
  let cookie: string;
  /** Serves a PNG for the webhook's `storeImages`. */
  let images: Server;
  let imageUrl: string;
  const schema = uniqueSchema();

  beforeAll(async () => {
    const png = await samples.png();
    images = createServer((_req, res) => res.writeHead(200, { 'content-type': 'image/png' }).end(png));
    await new Promise<void>((resolve) => images.listen(0, '127.0.0.1', resolve));
    imageUrl = `http://127.0.0.1:${(images.address() as AddressInfo).port}/image.png`;
    server = await startTestServer({
      env: {
        ...ADMIN_ENV,
        PUBLIC_ORIGIN: TEST_ORIGIN,
        WEBHOOK_SECRET: SECRET,
        MEDIA_JOBS: '1',
        MEDIA_QUEUE: '1',
        ...(backend === 'postgres' ? { DATABASE_URL: process.env.TEST_DATABASE_URL } : {}),
      },
      deps: { analysis: readingLoopbackSites(), ...(backend === 'postgres' ? { database: { pgSchema: schema } } : {}) },
    });
    cookie = await adminCookie(server);
  });
  afterAll(async () => {
    await server.close();
    await new Promise((resolve) => images.close(resolve));
  });

  async function upload(bytes: Buffer, filename: string, type: string) {
    const form = new FormData();
    form.set('file', new Blob([new Uint8Array(bytes)], { type }), filename);
    const res = await fetch(`${server.url}/api/admin/media`, { method: 'POST', headers: { origin: TEST_ORIGIN, cookie }, body: form });
    const text = await res.text();
    return { status: res.status, json: text ? (JSON.parse(text) as { error?: { code: string; message: string } }) : undefined, headers: res.headers };
  }
  /** The item once the media-variants job has made what was waiting (the upload answers before). */
  const processed = async (json: unknown) => {
    await server.instance.services.media.processWaiting();
    return server.instance.services.media.get(mediaItemSchema.parse(json).id);
  };

  it.each([
    ['taller', 1, 17_000],
    ['wider', 17_000, 1],
    ['one pixel taller than WebP holds', 1, MEDIA_MAX_SIDE + 1],
  ])('refuses an image %s than the formats stored can hold with 400 naming the limit (it was a 500)', async (_label, width, height) => {
    const png = await plainPng(width, height);
    expect(png.length).toBeLessThan(2048);
    const res = await upload(png, 'tall.png', 'image/png');
    expect(res.status).toBe(400);
    expect(res.json?.error?.code).toBe('image_too_large');
    expect(res.json?.error?.message).toContain(MEDIA_MAX_SIDE.toLocaleString('en-US'));
  });

  it('stores an image exactly as high as every format holds, scaled down to the tallest stored height', async () => {
    const res = await upload(await plainPng(2, MEDIA_MAX_SIDE), 'strip.png', 'image/png');
    expect(res.status).toBe(201);
    expect(mediaItemSchema.parse(res.json)).toMatchObject({ width: 1, height: MEDIA_MAX_STORED_HEIGHT });
  });

  it('stores a tall photo inside 1600 x 4800 with its shape kept, every variant too (the encoders never see 16,000 rows)', async () => {
    const res = await upload(await plainPng(1_000, 10_000), 'tall.png', 'image/png');
    expect(res.status).toBe(201);
    expect(mediaItemSchema.parse(res.json)).toMatchObject({ width: 480, height: MEDIA_MAX_STORED_HEIGHT, state: 'processing' });
    const item = await processed(res.json);
    expect([item.width, item.height, item.state]).toEqual([480, MEDIA_MAX_STORED_HEIGHT, 'ready']);
    expect(item.variants.length).toBeGreaterThan(0);
    // Each width's variants keep the 1:10 shape (the Open Graph JPEG is its own 1200x630 crop, not a variant).
    for (const v of item.variants.filter((x) => x.url !== item.ogUrl)) expect(v.height <= MEDIA_MAX_STORED_HEIGHT && Math.abs(v.width * 10 - v.height) <= 10, `${v.width}x${v.height}`).toBe(true);
  });

  it('refuses an animation of more frames than the limit with 400 naming it, and stores one at the limit', async () => {
    const tooLong = tinyFramesGif(MEDIA_MAX_FRAMES + 1);
    expect(tooLong.length).toBeLessThan(30_000);
    const refused = await upload(tooLong, 'frames.gif', 'image/gif');
    expect(refused.status).toBe(400);
    expect(refused.json?.error).toMatchObject({ code: 'too_many_frames', message: expect.stringContaining(MEDIA_MAX_FRAMES.toLocaleString('en-US')) });

    const atLimit = await upload(tinyFramesGif(MEDIA_MAX_FRAMES), 'frames.gif', 'image/gif');
    expect(atLimit.status).toBe(201);
    const gif = (await processed(atLimit.json)).variants.find((v) => v.format === 'gif')!;
    const stored = Buffer.from(await (await fetch(`${server.url}${gif.url}`)).arrayBuffer());
    expect((await sharp(stored, { animated: true }).metadata()).pages).toBe(MEDIA_MAX_FRAMES);
  });

  it(
    'answers uploads at once and makes one image at a time with one waiting: a third gets 503 with Retry-After, and the server keeps answering',
    async () => {
      const media = server.instance.services.media;
      const [first, second] = await Promise.all([noiseJpeg(600), noiseJpeg(600)]);
      // Both answer when stored and checked, long before their variants are made (seconds each).
      const one = await upload(first, 'first.jpg', 'image/jpeg');
      const two = await upload(second, 'second.jpg', 'image/jpeg');
      expect([one.status, two.status]).toEqual([201, 201]);
      expect(await media.queued()).toBe(2);

      // The event loop is free while libvips works: liveness answers during the processing.
      const live = await fetch(`${server.url}/api/health/live`);
      expect(live.status).toBe(200);
      expect((await media.get(mediaItemSchema.parse(one.json).id)).state).toBe('processing');

      const third = await upload(await samples.webp(), 'third.webp', 'image/webp');
      expect(third.status).toBe(503);
      expect(third.json?.error?.code).toBe('media_busy');
      expect(Number(third.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
      expect(third.json?.error?.message).toContain(`${third.headers.get('retry-after')} second`);
      // n8n's stored image takes the same queue: a 503 it retries, not a 400 it would give up on.
      const post = {
        title: 'A post whose image waits for the queue',
        excerpt: 'An excerpt long enough for the rules of the blog.',
        content: `<p>${'Words of a post that is long enough to be stored. '.repeat(4)}</p>`,
        author: 'Admin',
        category: 'AI Automation',
        metaDescription: 'A meta description that is long enough for the rules of the blog posts.',
        featuredImage: imageUrl,
        storeImages: true,
      };
      const delivery = await sendWebhook(server.url, SECRET, post, `busy-${backend}`);
      expect(delivery.status).toBe(503);
      expect(delivery.json).toMatchObject({ error: { code: 'media_busy' } });
      expect(Number(delivery.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);

      await media.processWaiting();
      expect(await media.queued()).toBe(0);
      for (const answer of [one, two]) expect((await media.get(mediaItemSchema.parse(answer.json).id)).state).toBe('ready');
      // Room again: the refused upload and the delivery (same key) now go through.
      expect((await upload(await samples.webp(), 'third.webp', 'image/webp')).status).toBe(201);
      expect((await sendWebhook(server.url, SECRET, post, `busy-${backend}`)).status).toBe(201);
      await media.processWaiting();
    },
    120_000,
  );
});
