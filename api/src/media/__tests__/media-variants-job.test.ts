import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mediaFileName } from '@site/contracts/media-rules';
import { testBackends, type TestDatabase } from '../../test-support/databases';
import { jpegWithGps, samples } from '../../test-support/media-fixtures';
import { createJobRunner } from '../../lib/job-runner';
import { createLogger } from '../../lib/logger';
import { UnavailableError } from '../../lib/domain-errors';
import { createMediaRepository } from '../media-repository';
import { createMediaService, MEDIA_FAILED, type MediaFile, type MediaService } from '../media-service';
import { categoryTag, POST_INDEX_TAG, postTag } from '../../lib/content-tags';
import { createPostsRepository } from '../../posts/posts-repository';
import { createPostService } from '../../posts/post-service';
import { createFileMediaStore, type MediaStore } from '../media-store';

/** A promise with its resolver: a gate a test opens by hand. */
function gate() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  let arrive!: () => void;
  const reached = new Promise<void>((resolve) => (arrive = resolve));
  return { open, opened, reached, arrive };
}

/*
 * Issue 32: the upload answers once the original is stored and checked, and the media-variants job makes the variants
 * after. Driven here by hand: a store whose writes wait at a gate holds the job between two variants, so what a page
 * gets meanwhile, a delete during processing, a crashed instance's image and the queue's 503 are each seen for sure.
 */
describe.each(testBackends().map((b) => [b.name, b] as const))('the media-variants job (%s)', (_name, backend) => {
  let database: TestDatabase;
  let dir: string;

  beforeAll(async () => {
    database = await backend.open();
  });
  afterAll(async () => {
    await database.dispose();
  });

  /** A media service of its own folder, whose variant writes wait at `hold.gate` once `hold.at` of them began. */
  async function setUp(processing = { concurrency: 1, maxWaiting: 4 }, onContentChange?: (tags: string[]) => void) {
    dir = await mkdtemp(path.join(tmpdir(), 'media-job-'));
    const files = createFileMediaStore(dir);
    const hold: { at: number; gate?: ReturnType<typeof gate> } = { at: 0 };
    let writes = 0;
    const store: MediaStore = {
      ...files,
      async put(name, content) {
        if (!name.endsWith('-source')) {
          writes += 1;
          if (hold.gate && writes === hold.at) {
            hold.gate.arrive();
            await hold.gate.opened;
          }
        }
        await files.put(name, content);
      },
    };
    const logger = createLogger({ level: 'silent' });
    const jobs = createJobRunner({ clock: () => new Date(), logger });
    const repository = createMediaRepository(database.handle.db);
    const media = createMediaService({ repository, store, clock: () => new Date(), logger, jobs, processing, onContentChange });
    /** Holds the job before its `at`-th variant write (counted from now). */
    const holdAt = (at: number) => {
      hold.at = writes + at;
      hold.gate = gate();
      return hold.gate;
    };
    return { media, repository, store, holdAt, stop: () => jobs.stop() };
  }

  async function upload(media: MediaService, bytes: Buffer, filename: string) {
    const file = path.join(dir, `upload-${filename}`);
    await writeFile(file, bytes);
    return media.upload({ path: file, filename, mimeType: '', size: bytes.length });
  }
  const body = (file: MediaFile | undefined) => (file && 'body' in file ? file : undefined);

  it('lets a page use the image at once: nothing yet is 503 with Retry-After, then the nearest variant made, then each one made', async () => {
    const { media, holdAt, stop } = await setUp();
    const first = holdAt(1);
    const { media: item, created } = await upload(media, await jpegWithGps(2000, 1500), 'photo.jpg');
    expect(created).toBe(true);
    expect(item).toMatchObject({ state: 'processing', variants: [], width: 1600, height: 1200 });
    const hash = item.url.slice('/media/'.length, '/media/'.length + 24);
    const fileName = (width: number, ext: string) => mediaFileName(hash, width, ext);

    await first.reached;
    expect(await media.file(item.url.slice('/media/'.length))).toEqual({ pending: true, retryAfterSeconds: expect.any(Number) });
    // The 480 px variants and the Open Graph JPEG are made (the first width's three formats, then og), the rest wait.
    const second = holdAt(4);
    first.open();
    await second.reached;
    expect((await media.get(item.id)).variants.map((v) => v.url)).toEqual(
      [fileName(480, 'avif'), fileName(480, 'webp'), fileName(480, 'jpg'), `${hash}-og.jpg`].map((n) => `/media/${n}`),
    );
    // The media URL (1600 px JPEG) and a 960 px AVIF are not made: the nearest of their format is served meanwhile.
    expect(body(await media.file(item.url.slice('/media/'.length)))).toMatchObject({ name: fileName(480, 'jpg'), contentType: 'image/jpeg', interim: true });
    expect(body(await media.file(fileName(960, 'avif')))).toMatchObject({ name: fileName(480, 'avif'), contentType: 'image/avif', interim: true });
    expect(body(await media.file(`${hash}-og.jpg`))).toMatchObject({ name: `${hash}-og.jpg`, contentType: 'image/jpeg' });
    expect(body(await media.file(`${hash}-og.jpg`))?.interim).toBeUndefined();

    second.open();
    await media.processWaiting();
    const ready = await media.get(item.id);
    expect(ready.state).toBe('ready');
    expect(ready.variants).toHaveLength(10);
    expect(body(await media.file(fileName(960, 'avif')))).toMatchObject({ name: fileName(960, 'avif') });
    expect(body(await media.file(fileName(960, 'avif')))?.interim).toBeUndefined();
    // The original is not kept once its variants exist, and was never a public name.
    expect((await readdir(dir)).filter((n) => n.endsWith('-source'))).toEqual([]);
    expect(await media.file(`${hash}-source`)).toBeUndefined();
    await stop();
  });

  it("knows an address's served size once its file is made, and then tells the pages of the posts showing it (the feed's enclosure), as on an alt change", async () => {
    const told: string[][] = [];
    const { media, holdAt, stop } = await setUp(undefined, (tags) => told.push(tags));
    const posts = createPostService({ posts: createPostsRepository(database.handle.db), clock: () => new Date() });
    const held = holdAt(1);
    const { media: item } = await upload(media, await jpegWithGps(700, 500), 'feed.jpg');
    await held.reached;
    // Published while its variants are being made (the n8n webhook does that): the address serves a stand-in meanwhile.
    const post = await posts.create(
      {
        title: 'A post published with an image being made',
        excerpt: 'An excerpt long enough for the rules of the blog.',
        content: `<p>${'Words of a post that is long enough to be stored. '.repeat(4)}</p>`,
        author: 'Admin',
        category: 'Case Studies',
        metaDescription: 'A meta description that is long enough for the rules of the blog posts.',
        featuredImage: item.url,
        status: 'published',
      },
      { allowStatus: true },
    );
    expect(await media.describe([item.url, '/mfe/blog/placeholder.svg', 'https://elsewhere.example/media/0123456789abcdef01234567-10x10.png'])).toEqual(
      new Map([[item.url, { alt: '' }]]),
    );
    expect(told).toEqual([]);

    held.open();
    await media.processWaiting();
    const pages = [POST_INDEX_TAG, postTag(post.slug), categoryTag('case-studies')];
    expect(told).toEqual([expect.arrayContaining(pages)]);
    const served = body(await media.file(item.url.slice('/media/'.length)))!;
    expect(served.interim).toBeUndefined();
    expect(await media.describe([item.url, item.ogUrl])).toEqual(
      new Map([
        [item.url, { alt: '', file: { bytes: served.body.length, type: 'image/jpeg' } }],
        [item.ogUrl, { alt: '', file: { bytes: body(await media.file(item.ogUrl.slice('/media/'.length)))!.body.length, type: 'image/jpeg' } }],
      ]),
    );

    await media.updateAlt(item.id, { alt: 'A kitchen printer with an order ticket' });
    expect(told).toHaveLength(2);
    expect(told[1]).toEqual(expect.arrayContaining(pages));
    expect((await media.describe([item.url])).get(item.url)?.alt).toBe('A kitchen printer with an order ticket');
    // The same text again changes no page.
    await media.updateAlt(item.id, { alt: 'A kitchen printer with an order ticket' });
    expect(told).toHaveLength(2);
    await posts.delete(post.id);
    await stop();
  });

  it('removes every file of an image deleted while its variants were being made', async () => {
    const { media, holdAt, stop } = await setUp();
    const held = holdAt(2);
    const { media: item } = await upload(media, await samples.webp(), 'hero.webp');
    await held.reached;
    await media.remove(item.id);
    held.open();
    await media.processWaiting();
    const hash = item.url.slice('/media/'.length, '/media/'.length + 24);
    expect((await readdir(dir)).filter((n) => n.startsWith(hash))).toEqual([]);
    await expect(media.get(item.id)).rejects.toMatchObject({ code: 'media_not_found' });
    await stop();
  });

  it('takes over an image whose instance stopped mid-way (its claim lapsed), and fails one that broke the processing three times', async () => {
    const { media, repository, store, stop } = await setUp();
    /** A waiting image as an upload leaves it (row and original), made by no run yet. */
    const waiting = async (bytes: Buffer, attempts: number) => {
      const hash = randomBytes(12).toString('hex');
      await store.put(`${hash}-source`, bytes);
      const id = randomUUID();
      await repository.insert({ id, hash, filename: 'a.gif', alt: '', format: 'gif', width: 300, height: 200, bytes: bytes.length, variants: [], createdAt: new Date().toISOString(), state: 'processing', attempts });
      return id;
    };
    const id = await waiting(await samples.gif(), 0);
    // Another instance claimed it and stopped: until its claim runs out, no run here takes it.
    expect(await repository.claim(id, new Date().toISOString(), new Date(Date.now() + 60_000).toISOString())).toBe(true);
    expect(await repository.claim(id, new Date().toISOString(), new Date(Date.now() + 60_000).toISOString())).toBe(false);
    expect(await media.processWaiting()).toBe(0);
    expect((await media.get(id)).state).toBe('processing');
    await database.handle.db.updateTable('media').set({ claimed_until: new Date(Date.now() - 1000).toISOString() }).where('id', '=', id).execute();
    expect(await media.processWaiting()).toBe(1);
    expect(await media.get(id)).toMatchObject({ state: 'ready', variants: expect.arrayContaining([expect.objectContaining({ format: 'gif' })]) });

    // Claimed and lost three times (a process killed by it each time): failed, in words, without a fourth try.
    const poison = await waiting(await samples.gif(), 3);
    expect(await media.processWaiting()).toBe(1);
    expect(await media.get(poison)).toMatchObject({ state: 'failed', error: MEDIA_FAILED, variants: [] });
    await stop();
  });

  it('refuses an upload with 503 and Retry-After when the queue is full, and takes it once there is room', async () => {
    const { media, holdAt, stop } = await setUp({ concurrency: 1, maxWaiting: 1 });
    const held = holdAt(1);
    await upload(media, await jpegWithGps(900, 600), 'one.jpg');
    await held.reached;
    await upload(media, await jpegWithGps(901, 600), 'two.jpg');
    expect(await media.queued()).toBe(2);
    const refused = await upload(media, await jpegWithGps(902, 600), 'three.jpg').catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(UnavailableError);
    expect(refused).toMatchObject({ code: 'media_busy', message: expect.stringMatching(/Try again in \d+ seconds?\./) });
    expect((refused as UnavailableError).retryAfterSeconds).toBeGreaterThanOrEqual(1);
    held.open();
    await media.processWaiting();
    expect(await media.queued()).toBe(0);
    expect((await upload(media, await jpegWithGps(902, 600), 'three.jpg')).created).toBe(true);
    await media.processWaiting();
    await stop();
    await rm(dir, { recursive: true, force: true });
  });
});
