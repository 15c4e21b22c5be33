import sharp, { type Metadata, type OutputInfo, type Sharp } from 'sharp';
import { MEDIA_FORMATS, MEDIA_MAX_FRAMES, MEDIA_MAX_PIXELS, MEDIA_MAX_SIDE, MEDIA_MAX_STORED_HEIGHT, MEDIA_OG_SIZE, MEDIA_WIDTHS, mediaFileName, mediaVariantFormats, mediaWidths, type MediaFormat } from '@site/contracts/media-rules';
import { InvalidInputError } from '../lib/domain-errors';

export interface ProcessedVariant {
  name: string;
  width: number;
  height: number;
  format: string;
  data: Buffer;
}

export interface ProcessedImage {
  /** The largest stored width and its height (after orientation). */
  width: number;
  height: number;
  variants: ProcessedVariant[];
}

export const MEDIA_MESSAGES = {
  tooManyPixels: `The image has too many pixels (more than ${MEDIA_MAX_PIXELS / 1_000_000} megapixels). Resize it and try again.`,
  corrupt: 'The image could not be read: the file is corrupt or incomplete.',
  tooLarge: (width: number, height: number) =>
    `The image is ${width} x ${height} pixels: its width and height may each be at most ${MEDIA_MAX_SIDE.toLocaleString('en-US')} pixels (the largest image WebP can hold). Resize it and try again.`,
  tooManyFrameCount: (frames: number) =>
    `The animation has ${frames.toLocaleString('en-US')} frames: at most ${MEDIA_MAX_FRAMES.toLocaleString('en-US')} are accepted. Make it shorter and try again.`,
  tooManyFrames: `The animation is too large: all its frames together may have at most ${MEDIA_MAX_PIXELS / 1_000_000} megapixels. Make it smaller or shorter and try again.`,
} as const;

/**
 * libvips' share of the process (global to it): `threads` per operation (sharp's default is one per core) and its
 * operation cache, which an upload processed once never reuses (0 turns it off). Set from config at start.
 */
export function configureImageProcessing(options: { threads: number; cacheMb: number }): void {
  sharp.concurrency(options.threads);
  sharp.cache(options.cacheMb > 0 ? { memory: options.cacheMb, files: 0, items: 100 } : false);
}

/** Runs the jobs one after another: one upload's encodes never take more than one operation's threads at a time. */
async function oneByOne<T>(jobs: Array<() => Promise<T>>): Promise<T[]> {
  const done: T[] = [];
  for (const job of jobs) done.push(await job());
  return done;
}

/** The original format's encoder settings (AVIF and WebP are made for every image). */
function encode(pipeline: Sharp, format: string): Sharp {
  switch (format) {
    case 'avif':
      return pipeline.avif({ quality: 55, effort: 2 });
    case 'webp':
      return pipeline.webp({ quality: 78 });
    case 'png':
      return pipeline.png({ compressionLevel: 9 });
    case 'gif':
      return pipeline.gif();
    default:
      return pipeline.flatten({ background: '#ffffff' }).jpeg({ quality: 80, progressive: true });
  }
}

/**
 * Decodes the upload once (oriented by its EXIF tag, inside the widest stored width and the tallest stored height), then writes each width as
 * AVIF, WebP and the upload's format, and the 1200x630 Open Graph JPEG, one after another. sharp writes no metadata unless asked
 * (`withMetadata`), so EXIF (a phone's GPS position), XMP and IPTC never reach a visitor.
 */
export async function processImage(file: string, hash: string, format: MediaFormat): Promise<ProcessedImage> {
  let meta: Metadata;
  try {
    meta = await sharp(file, { limitInputPixels: false }).metadata();
  } catch {
    throw new InvalidInputError(MEDIA_MESSAGES.corrupt, { code: 'corrupt_image' });
  }
  // Checked on the header before a pixel is decoded: a small file may claim a huge image (decompression bomb).
  if (!meta.width || !meta.height || meta.width * meta.height > MEDIA_MAX_PIXELS) {
    throw new InvalidInputError(MEDIA_MESSAGES.tooManyPixels, { code: 'too_many_pixels' });
  }
  // Every format stored must be able to hold it: refused here, not after seconds of work by the encoder that cannot.
  if (meta.width > MEDIA_MAX_SIDE || meta.height > MEDIA_MAX_SIDE) {
    throw new InvalidInputError(MEDIA_MESSAGES.tooLarge(meta.width, meta.height), { code: 'image_too_large' });
  }
  // The header counts the frames too: thousands of tiny ones cost seconds of CPU though their pixels are few.
  if ((meta.pages ?? 1) > MEDIA_MAX_FRAMES) {
    throw new InvalidInputError(MEDIA_MESSAGES.tooManyFrameCount(meta.pages!), { code: 'too_many_frames' });
  }
  let decoded: { data: Buffer; info: OutputInfo };
  try {
    decoded = await sharp(file, { limitInputPixels: MEDIA_MAX_PIXELS, failOn: 'truncated' })
      .rotate()
      // At most the widest stored width, and at most MEDIA_MAX_STORED_HEIGHT tall (a tall strip keeps its shape).
      .resize({ width: MEDIA_WIDTHS.at(-1), height: MEDIA_MAX_STORED_HEIGHT, fit: 'inside', withoutEnlargement: true })
      .raw()
      .toBuffer({ resolveWithObject: true });
  } catch {
    throw new InvalidInputError(MEDIA_MESSAGES.corrupt, { code: 'corrupt_image' });
  }
  const { data, info } = decoded;
  const raw = { raw: { width: info.width, height: info.height, channels: info.channels } };
  const ext = MEDIA_FORMATS[format].ext;
  const formats = mediaVariantFormats(ext);
  // An animated GIF keeps its animation in its WebP and GIF variants (the frames are decoded together, so all of them
  // count against the pixel limit); the Open Graph JPEG is its first frame.
  if (format === 'gif' && (meta.pages ?? 1) > 1) return processAnimation(file, hash, meta, formats, { data, raw });
  const jobs: Array<() => Promise<ProcessedVariant>> = [];
  for (const width of mediaWidths(info.width)) {
    for (const out of formats) {
      jobs.push(async () => {
        const pipeline = width === info.width ? sharp(data, raw) : sharp(data, raw).resize({ width });
        const result = await encode(pipeline, out).toBuffer({ resolveWithObject: true });
        return { name: mediaFileName(hash, width, out), width, height: result.info.height, format: out, data: result.data };
      });
    }
  }
  jobs.push(() => ogVariant(hash, { data, raw }));
  return { width: info.width, height: info.height, variants: await oneByOne(jobs) };
}

/** How far an image's shape may differ from the Open Graph shape before its long side is cut first (see ogVariant). */
const OG_MAX_STRETCH = 4;

async function ogVariant(hash: string, first: { data: Buffer; raw: { raw: { width: number; height: number; channels: 1 | 2 | 3 | 4 } } }): Promise<ProcessedVariant> {
  // 'cover' scales the short side to the target before cropping: a 2 x 16,000 strip would become 1200 x 9,600,000
  // pixels on the way. A shape far from 1200:630 is cut to at most OG_MAX_STRETCH times it first (around the middle),
  // so the step between holds at most that many times the Open Graph image's pixels.
  const { width, height } = first.raw.raw;
  const target = MEDIA_OG_SIZE.width / MEDIA_OG_SIZE.height;
  let pipeline = sharp(first.data, first.raw);
  if (width / height < target / OG_MAX_STRETCH) {
    const keep = Math.max(1, Math.min(height, Math.round((width * OG_MAX_STRETCH) / target)));
    pipeline = sharp(await pipeline.extract({ left: 0, top: Math.floor((height - keep) / 2), width, height: keep }).toBuffer(), { raw: { ...first.raw.raw, height: keep } });
  } else if (width / height > target * OG_MAX_STRETCH) {
    const keep = Math.max(1, Math.min(width, Math.round(height * target * OG_MAX_STRETCH)));
    pipeline = sharp(await pipeline.extract({ left: Math.floor((width - keep) / 2), top: 0, width: keep, height }).toBuffer(), { raw: { ...first.raw.raw, width: keep } });
  }
  const og = await pipeline
    .resize({ ...MEDIA_OG_SIZE, fit: 'cover', position: 'attention' })
    .flatten({ background: '#ffffff' })
    .jpeg({ quality: 82, progressive: true })
    .toBuffer();
  return { name: `${hash}-og.jpg`, ...MEDIA_OG_SIZE, format: 'jpg', data: og };
}

/** The variants of an animated GIF: every frame, resized, as animated WebP and GIF; the first frame for Open Graph. */
async function processAnimation(
  file: string,
  hash: string,
  meta: Metadata,
  formats: string[],
  first: { data: Buffer; raw: { raw: { width: number; height: number; channels: 1 | 2 | 3 | 4 } } },
): Promise<ProcessedImage> {
  const width = meta.width!;
  const frameHeight = meta.pageHeight ?? meta.height!;
  const pages = meta.pages ?? 1;
  if (width * frameHeight * pages > MEDIA_MAX_PIXELS) throw new InvalidInputError(MEDIA_MESSAGES.tooManyFrames, { code: 'too_many_pixels' });
  const widest = Math.min(width, MEDIA_WIDTHS.at(-1)!);
  const heightAt = (w: number) => Math.max(1, Math.round((frameHeight * w) / width));
  const jobs: Array<() => Promise<ProcessedVariant>> = [];
  for (const w of mediaWidths(widest)) {
    for (const out of formats) {
      jobs.push(async () => {
        try {
          const pipeline = sharp(file, { animated: true, limitInputPixels: MEDIA_MAX_PIXELS, failOn: 'truncated' });
          const resized = w === width ? pipeline : pipeline.resize({ width: w });
          const data = await (out === 'webp' ? resized.webp({ quality: 78 }) : resized.gif()).toBuffer();
          return { name: mediaFileName(hash, w, out), width: w, height: heightAt(w), format: out, data };
        } catch {
          throw new InvalidInputError(MEDIA_MESSAGES.corrupt, { code: 'corrupt_image' });
        }
      });
    }
  }
  jobs.push(() => ogVariant(hash, first));
  return { width: widest, height: heightAt(widest), variants: await oneByOne(jobs) };
}
