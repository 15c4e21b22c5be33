import { createHash, randomUUID } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { pipeline } from 'node:stream/promises';
import { fileTypeFromFile } from 'file-type';
import { MEDIA_CONTENT_TYPES, MEDIA_FORMATS, mediaOgUrl, mediaUrl, type MediaFormat } from '@site/contracts/media-rules';
import { mediaAltSchema, type MediaItem, type MediaList } from '@site/contracts/media';
import type { MediaRepository, StoredMedia, StoredMediaUse } from './media-repository';
import type { Clock } from '../lib/clock';
import { isRecordKey } from '@site/contracts/text';
import { DELETED_POST_RETENTION_MS } from '@site/contracts/admin';
import { ConflictError, InvalidInputError, NotFoundError, UnavailableError } from '../lib/domain-errors';
import { createWorkPool, PoolFullError, type WorkPool } from '../lib/work-pool';
import { processImage } from './media-processing';
import type { MediaStore } from './media-store';

export const UPLOAD_MESSAGES = {
  empty: 'The file is empty.',
  svg: 'SVG images are not accepted: they can carry scripts. Export the image as PNG or WebP.',
  unsupported: 'Only JPEG, PNG, WebP, AVIF and GIF images are accepted.',
  busy: (seconds: number) => `Other images are being processed right now. Try again in ${seconds} second${seconds === 1 ? '' : 's'}.`,
  mismatch: (actual: string, claimed: string) => `The file's content is a ${actual} image, but its ${claimed} says otherwise. Save it with the right type and try again.`,
} as const;

/** A file the route received (a temp file, gone after the answer). */
export interface MediaUpload {
  path: string;
  filename: string;
  mimeType: string;
  size: number;
  alt?: string;
  /**
   * 'url': fetched from an address (an n8n post's image), whose name and declared type say little: the bytes alone
   * decide. An upload's name and type must agree with its bytes.
   */
  source?: 'upload' | 'url';
}

export interface MediaService {
  /** Checks, processes and stores an upload; `created` is false when the same bytes were stored before. */
  upload(file: MediaUpload): Promise<{ media: MediaItem; created: boolean }>;
  list(): Promise<MediaList>;
  updateAlt(id: string, body: unknown): Promise<MediaItem>;
  remove(id: string): Promise<void>;
  /** Images being processed now, and waiting their turn. */
  processing(): { running: number; waiting: number };
  /** A stored variant by its public file name, or undefined. */
  file(name: string): Promise<{ body: Buffer; contentType: string } | undefined>;
  readonly storeKind: MediaStore['kind'];
}

/** A public media file name: `<hash>-<width>.<ext>`, `<hash>-og.jpg`, or the media URL's `<hash>-<w>x<h>.<ext>`. */
const FILE_NAME = /^([0-9a-f]{24})-(?:(\d{1,5})(?:x\d{1,5})?|og)\.(jpg|png|webp|avif|gif)$/;

async function sha256(file: string): Promise<string> {
  const hash = createHash('sha256');
  await pipeline(createReadStream(file), hash);
  return hash.digest('hex');
}

function formatOfMime(mime: string): MediaFormat | undefined {
  return (Object.keys(MEDIA_FORMATS) as MediaFormat[]).find((f) => MEDIA_FORMATS[f].mime === mime);
}

function itemOf(media: StoredMedia, uses: StoredMediaUse[]): MediaItem {
  const ext = MEDIA_FORMATS[media.format as MediaFormat]?.ext ?? media.format;
  return {
    id: media.id,
    url: mediaUrl(media.hash, media.width, media.height, ext),
    ogUrl: mediaOgUrl(media.hash),
    width: media.width,
    height: media.height,
    format: media.format,
    alt: media.alt,
    filename: media.filename,
    bytes: media.bytes,
    createdAt: media.createdAt,
    variants: media.variants.map((v) => ({ url: `/media/${v.name}`, width: v.width, height: v.height, format: v.format })),
    usedBy: uses.filter((u) => u.hash === media.hash).map((u) => ({ id: u.postId, title: u.title, field: u.field, ...(u.deleted ? { deleted: true as const } : {}) })),
  };
}

export function createMediaService(deps: {
  repository: MediaRepository;
  store: MediaStore;
  clock: Clock;
  /**
   * Where processing takes its turn (uploads and the webhook's stored images alike): a bounded pool, so a burst of
   * large images waits or is refused (503) instead of taking the server's CPU and memory. One at a time by default.
   */
  pool?: WorkPool;
}): MediaService {
  const { repository, store, clock } = deps;
  const pool = deps.pool ?? createWorkPool({ concurrency: 1, maxWaiting: 4 });
  /** Deleted posts restorable since then still use their images. */
  const deletedSince = () => new Date(clock().getTime() - DELETED_POST_RETENTION_MS).toISOString();

  async function checkType(file: MediaUpload): Promise<MediaFormat> {
    if (file.size === 0) throw new InvalidInputError(UPLOAD_MESSAGES.empty, { code: 'empty_file' });
    const extension = file.filename.includes('.') ? file.filename.split('.').pop()!.toLowerCase() : '';
    const declared = file.mimeType.toLowerCase();
    if (extension === 'svg' || extension === 'svgz' || declared.includes('svg')) throw new InvalidInputError(UPLOAD_MESSAGES.svg, { code: 'svg_refused' });
    // The bytes decide what the file is; the name and the declared type must agree with them.
    const sniffed = await fileTypeFromFile(file.path);
    const format = sniffed ? formatOfMime(sniffed.mime) : undefined;
    if (!format) throw new InvalidInputError(UPLOAD_MESSAGES.unsupported, { code: 'unsupported_type' });
    const name = format === 'jpeg' ? 'JPEG' : format.toUpperCase();
    if (file.source === 'url') return format;
    if (!(MEDIA_FORMATS[format].extensions as readonly string[]).includes(extension)) {
      throw new InvalidInputError(UPLOAD_MESSAGES.mismatch(name, `name (.${extension || 'no extension'})`), { code: 'type_mismatch' });
    }
    if (declared && declared !== 'application/octet-stream' && declared !== MEDIA_FORMATS[format].mime) {
      throw new InvalidInputError(UPLOAD_MESSAGES.mismatch(name, `type (${declared})`), { code: 'type_mismatch' });
    }
    return format;
  }

  async function getStored(id: string): Promise<StoredMedia> {
    // An id that no record can have (a NUL byte, which PostgreSQL refuses in text) is not looked up.
    const media = isRecordKey(id) ? await repository.byId(id) : undefined;
    if (!media) throw new NotFoundError('No such image.', { code: 'media_not_found' });
    return media;
  }

  return {
    storeKind: store.kind,
    processing: () => pool.stats(),
    async upload(file) {
      const format = await checkType(file);
      const alt = mediaAltSchema.parse({ alt: file.alt ?? '' }).alt;
      const hash = (await sha256(file.path)).slice(0, 24);
      const existing = await repository.byHash(hash);
      if (existing) return { media: itemOf(existing, await repository.usesOf([hash], deletedSince())), created: false };
      let processed: Awaited<ReturnType<typeof processImage>>;
      try {
        processed = await pool.run(() => processImage(file.path, hash, format));
      } catch (error) {
        if (!(error instanceof PoolFullError)) throw error;
        throw new UnavailableError(UPLOAD_MESSAGES.busy(error.retryAfterSeconds), { code: 'media_busy', retryAfterSeconds: error.retryAfterSeconds });
      }
      // Files first, then the row: a row always names files that exist (a crash in between leaves unnamed files only).
      for (const variant of processed.variants) await store.put(variant.name, variant.data);
      const media: StoredMedia = {
        id: randomUUID(),
        hash,
        filename: file.filename.slice(0, 200),
        alt,
        format,
        width: processed.width,
        height: processed.height,
        bytes: file.size,
        variants: processed.variants.map((v) => ({ name: v.name, width: v.width, height: v.height, format: v.format, size: v.data.length })),
        createdAt: clock().toISOString(),
      };
      try {
        await repository.insert(media);
      } catch (error) {
        // The same bytes uploaded at once through another request or instance: its row won.
        const winner = await repository.byHash(hash);
        if (!winner) throw error;
        return { media: itemOf(winner, []), created: false };
      }
      return { media: itemOf(media, []), created: true };
    },
    async list() {
      const media = await repository.list(500);
      const uses = new Map<string, StoredMediaUse[]>();
      for (const use of await repository.usesOf(media.map((m) => m.hash), deletedSince())) uses.set(use.hash, [...(uses.get(use.hash) ?? []), use]);
      return { media: media.map((m) => itemOf(m, uses.get(m.hash) ?? [])) };
    },
    async updateAlt(id, body) {
      const { alt } = mediaAltSchema.parse(body ?? {});
      const media = await getStored(id);
      await repository.setAlt(id, alt);
      return itemOf({ ...media, alt }, await repository.usesOf([media.hash], deletedSince()));
    },
    async remove(id) {
      const media = await getStored(id);
      const uses = await repository.usesOf([media.hash], deletedSince());
      if (uses.length > 0) {
        const titles = [...new Set(uses.map((u) => `"${u.title}"${u.deleted ? ' (deleted, can be restored for 30 days)' : ''}`))].join(', ');
        throw new ConflictError(`This image is used by ${titles}. Choose another image there first.`, { code: 'media_in_use' });
      }
      await repository.remove(id);
      await store.remove(media.variants.map((v) => v.name));
    },
    async file(name) {
      const m = FILE_NAME.exec(name);
      if (!m) return undefined;
      const [, hash, width, ext] = m;
      const stored = width ? `${hash}-${width}.${ext}` : `${hash}-og.jpg`;
      const body = await store.get(stored);
      return body ? { body, contentType: MEDIA_CONTENT_TYPES[ext!]! } : undefined;
    },
  };
}
