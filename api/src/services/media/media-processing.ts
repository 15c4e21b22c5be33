import sharp, { type Metadata, type OutputInfo, type Sharp } from 'sharp';
import { MEDIA_FORMATS, MEDIA_MAX_PIXELS, MEDIA_OG_SIZE, MEDIA_WIDTHS, mediaFileName, mediaWidths, type MediaFormat } from '@site/contracts/media-rules';
import { InvalidInputError } from '../../lib/domain-errors';

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
  const formats = [...new Set(['avif', 'webp', ext])];
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
  jobs.push(
    (async () => {
      const og = await sharp(data, raw)
        .resize({ ...MEDIA_OG_SIZE, fit: 'cover', position: 'attention' })
        .flatten({ background: '#ffffff' })
        .jpeg({ quality: 82, progressive: true })
        .toBuffer();
      return { name: `${hash}-og.jpg`, ...MEDIA_OG_SIZE, format: 'jpg', data: og };
    })(),
  );
  return { width: info.width, height: info.height, variants: await Promise.all(jobs) };
}
