import { describe, expect, it } from 'vitest';
import sharp from 'sharp';
import { jpegWithGps, samples } from '../../test-support/media-fixtures';
import { InvalidInputError } from '../../lib/domain-errors';
import { CHILD_MESSAGES, createChildImageProcessor } from '../media-child';
import type { ProcessedVariant } from '../media-processing';

/*
 * Issue 32: each image is made in a child process, so its memory leaves with the child and one image can take no more
 * than its memory cap and its time budget. These run the real child (media-worker.ts bundled on first use).
 */
describe('the image child process', () => {
  it('sends each variant as it is made, without metadata, then the stored size', async () => {
    const make = createChildImageProcessor({ threads: 1, maxMb: 1024, budgetMs: 60_000 });
    const seen: string[] = [];
    const done = await make(await jpegWithGps(1200, 900), 'a'.repeat(24), 'jpeg', async (v: ProcessedVariant) => {
      seen.push(v.name);
    });
    expect([done.width, done.height]).toEqual([1200, 900]);
    expect(seen).toEqual(done.variants.map((v) => v.name));
    expect(seen[0]).toBe(`${'a'.repeat(24)}-480.avif`);
    const jpeg = done.variants.find((v) => v.name.endsWith('-1200.jpg'))!;
    expect((await sharp(jpeg.data).metadata()).exif).toBeUndefined();
  });

  it("says in words when the image is corrupt past its header (the child's InvalidInputError)", async () => {
    const make = createChildImageProcessor({ threads: 1, maxMb: 1024, budgetMs: 60_000 });
    const whole = await jpegWithGps(1200, 900);
    const error = await make(whole.subarray(0, whole.length / 2), 'b'.repeat(24), 'jpeg', async () => {}).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InvalidInputError);
    expect(error).toMatchObject({ code: 'corrupt_image' });
  });

  it('stops an image past its time budget, and one past its memory cap, failing it in words', async () => {
    const slow = createChildImageProcessor({ threads: 1, maxMb: 4096, budgetMs: 50 });
    await expect(slow(await samples.webp(), 'c'.repeat(24), 'webp', async () => {})).rejects.toMatchObject({ code: 'image_too_slow', message: CHILD_MESSAGES.tooLong(0) });
    // 128 MB: less than a 7,000 x 7,000 PNG decodes into (147 MB of pixels; a PNG has no shrink-on-load).
    const greedy = createChildImageProcessor({ threads: 1, maxMb: 128, budgetMs: 60_000 });
    const big = await sharp({ create: { width: 7000, height: 7000, channels: 3, background: '#3a6' } }).png().toBuffer();
    await expect(greedy(big, 'd'.repeat(24), 'png', async () => {})).rejects.toMatchObject({ code: 'image_too_much_memory', message: CHILD_MESSAGES.tooMuchMemory(128) });
  }, 60_000);

  it('stops the child when storing a variant fails (the image was deleted meanwhile)', async () => {
    const make = createChildImageProcessor({ threads: 1, maxMb: 1024, budgetMs: 60_000 });
    let stored = 0;
    const error = await make(await samples.png(), 'e'.repeat(24), 'png', async () => {
      stored += 1;
      if (stored === 2) throw new Error('deleted while processed');
    }).catch((e: unknown) => e);
    expect(error).toMatchObject({ message: 'deleted while processed' });
    expect(stored).toBe(2);
  });
});
