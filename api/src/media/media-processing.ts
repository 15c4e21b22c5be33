import sharp, { type Metadata, type OutputInfo, type Sharp } from 'sharp';
import { MEDIA_FORMATS, MEDIA_MAX_PIXELS, MEDIA_OG_SIZE, MEDIA_WIDTHS, mediaFileName, mediaVariantFormats, mediaWidths, type MediaFormat } from '@site/contracts/media-rules';
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
  tooManyFrames: `The animation is too large: all its frames together may have at most ${MEDIA_MAX_PIXELS / 1_000_000} megapixels. Make it smaller or shorter and try again.`,
} as const;

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
 * Decodes the upload once (oriented by its EXIF tag, at most the widest stored width), then writes each width as
 * AVIF, WebP and the upload's format, and the 1200x630 Open Graph JPEG. sharp writes no metadata unless asked
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
  let decoded: { data: Buffer; info: OutputInfo };
  try {
    decoded = await sharp(file, { limitInputPixels: MEDIA_MAX_PIXELS, failOn: 'truncated' })
      .rotate()
      .resize({ width: MEDIA_WIDTHS.at(-1), withoutEnlargement: true })
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
  const jobs: Array<Promise<ProcessedVariant>> = [];
  for (const width of mediaWidths(info.width)) {
    for (const out of formats) {
      jobs.push(
        (async () => {
          const pipeline = width === info.width ? sharp(data, raw) : sharp(data, raw).resize({ width });
          const result = await encode(pipeline, out).toBuffer({ resolveWithObject: true });
          return { name: mediaFileName(hash, width, out), width, height: result.info.height, format: out, data: result.data };
        })(),
      );
    }
  }
  jobs.push(ogVariant(hash, { data, raw }));
  return { width: info.width, height: info.height, variants: await Promise.all(jobs) };
}

async function ogVariant(hash: string, first: { data: Buffer; raw: { raw: { width: number; height: number; channels: 1 | 2 | 3 | 4 } } }): Promise<ProcessedVariant> {
  const og = await sharp(first.data, first.raw)
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
  const jobs: Array<Promise<ProcessedVariant>> = [];
  for (const w of mediaWidths(widest)) {
    for (const out of formats) {
      jobs.push(
        (async () => {
          try {
            const pipeline = sharp(file, { animated: true, limitInputPixels: MEDIA_MAX_PIXELS, failOn: 'truncated' });
            const resized = w === width ? pipeline : pipeline.resize({ width: w });
            const data = await (out === 'webp' ? resized.webp({ quality: 78 }) : resized.gif()).toBuffer();
            return { name: mediaFileName(hash, w, out), width: w, height: heightAt(w), format: out, data };
          } catch {
            throw new InvalidInputError(MEDIA_MESSAGES.corrupt, { code: 'corrupt_image' });
          }
        })(),
      );
    }
  }
  jobs.push(ogVariant(hash, first));
  return { width: widest, height: heightAt(widest), variants: await Promise.all(jobs) };
}
