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

/**
 * Runs the jobs one after another (one upload's encodes never take more than one operation's threads at a time) and
 * hands each variant on as soon as it is made.
 */
async function oneByOne(jobs: Array<() => Promise<ProcessedVariant>>, onVariant: (variant: ProcessedVariant) => Promise<void>): Promise<ProcessedVariant[]> {
  const done: ProcessedVariant[] = [];
  for (const job of jobs) {
    const variant = await job();
    await onVariant(variant);
    done.push(variant);
  }
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

/** What the header of an accepted image says: its stored size (oriented, inside the stored bounds) and frames. */
export interface InspectedImage {
  meta: Metadata;
  /** The size of the largest stored variant, as planned from the header (processing confirms it). */
  width: number;
  height: number;
}

/**
 * Reads the header only (no pixel is decoded, milliseconds whatever the image) and refuses what no stored format can
 * hold or what would cost too much to decode: too many pixels (a small file may claim a huge image, a decompression
 * bomb), a side over MEDIA_MAX_SIDE, too many frames, or an animation whose frames together pass the pixel limit.
 * The upload answers on this; the variants are made later by the media-variants job (processImage).
 */
export async function inspectImage(input: string | Buffer, format: MediaFormat): Promise<InspectedImage> {
  let meta: Metadata;
  try {
    meta = await sharp(input, { limitInputPixels: false }).metadata();
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
  if (format === 'gif' && (meta.pages ?? 1) > 1) {
    const frameHeight = meta.pageHeight ?? meta.height;
    if (meta.width * frameHeight * meta.pages! > MEDIA_MAX_PIXELS) throw new InvalidInputError(MEDIA_MESSAGES.tooManyFrames, { code: 'too_many_pixels' });
    const widest = Math.min(meta.width, MEDIA_WIDTHS.at(-1)!);
    return { meta, width: widest, height: Math.max(1, Math.round((frameHeight * widest) / meta.width)) };
  }
  // EXIF orientations 5 to 8 turn the image a quarter: its width is the stored height.
  const [width, height] = (meta.orientation ?? 1) >= 5 ? [meta.height, meta.width] : [meta.width, meta.height];
  const scale = Math.min(1, MEDIA_WIDTHS.at(-1)! / width, MEDIA_MAX_STORED_HEIGHT / height);
  return { meta, width: Math.max(1, Math.round(width * scale)), height: Math.max(1, Math.round(height * scale)) };
}

/**
 * Makes the variants of an inspected image: decodes it once (oriented by its EXIF tag, inside the widest stored
 * width and the tallest stored height), then writes each width as AVIF, WebP and the upload's format, smallest width
 * first, and the 1200x630 Open Graph JPEG after the first width, one after another; `onVariant` gets each as it is
 * made (the page can use it at once). sharp writes no metadata unless asked (`withMetadata`), so EXIF (a phone's GPS
 * position), XMP and IPTC never reach a visitor.
 */
export async function processImage(
  input: string | Buffer,
  hash: string,
  format: MediaFormat,
  onVariant: (variant: ProcessedVariant) => Promise<void> = async () => {},
): Promise<ProcessedImage> {
  const { meta } = await inspectImage(input, format);
  let decoded: { data: Buffer; info: OutputInfo };
  try {
    decoded = await sharp(input, { limitInputPixels: MEDIA_MAX_PIXELS, failOn: 'truncated' })
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
  if (format === 'gif' && (meta.pages ?? 1) > 1) return processAnimation(input, hash, meta, formats, { data, raw }, onVariant);
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
  // The Open Graph image right after the smallest width: a post shared at once has its preview.
  jobs.splice(formats.length, 0, () => ogVariant(hash, { data, raw }));
  return { width: info.width, height: info.height, variants: await oneByOne(jobs, onVariant) };
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
  file: string | Buffer,
  hash: string,
  meta: Metadata,
  formats: string[],
  first: { data: Buffer; raw: { raw: { width: number; height: number; channels: 1 | 2 | 3 | 4 } } },
  onVariant: (variant: ProcessedVariant) => Promise<void>,
): Promise<ProcessedImage> {
  // Its frames together are within the pixel limit (inspectImage).
  const width = meta.width!;
  const frameHeight = meta.pageHeight ?? meta.height!;
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
  jobs.splice(formats.length, 0, () => ogVariant(hash, first));
  return { width: widest, height: heightAt(widest), variants: await oneByOne(jobs, onVariant) };
}
