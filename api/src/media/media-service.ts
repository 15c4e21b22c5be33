import { createHash, randomUUID } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { pipeline } from 'node:stream/promises';
import { fileTypeFromFile } from 'file-type';
import { MEDIA_CONTENT_TYPES, MEDIA_FORMATS, MEDIA_PATH, mediaOgUrl, mediaUrl, type MediaFormat } from '@site/contracts/media-rules';
import { mediaAltSchema, type MediaItem, type MediaList, type MediaListQuery } from '@site/contracts/media';
import type { MediaPosition, MediaRepository, StoredMedia, StoredMediaUse, StoredMediaVariant } from './media-repository';
import type { Clock } from '../lib/clock';
import { postChangeTags } from '../lib/content-tags';
import { isRecordKey } from '@site/contracts/text';
import { DELETED_POST_RETENTION_MS } from '@site/contracts/admin';
import { ConflictError, InvalidInputError, NotFoundError, UnavailableError } from '../lib/domain-errors';
import type { JobRun, JobRunner } from '../lib/job-runner';
import type { Logger } from '../lib/logger';
import { inspectImage, processImage } from './media-processing';
import type { ImageProcessor } from './media-child';
import type { MediaStore } from './media-store';
import { cleanMediaFilename, MEDIA_FILENAME_FALLBACK } from './media-filename';

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

/** A public media file: a variant as named, or (`interim`) the nearest variant made so far while the rest are made. */
export type MediaFile =
  | { body: Buffer; contentType: string; name: string; interim?: true }
  /** The image exists but none of its variants is made yet: try again in a few seconds. */
  | { pending: true; retryAfterSeconds: number };

/** What the library knows of an image address it serves, from its row alone (no file is read). */
export interface MediaUrlFacts {
  /** The alt text the owner wrote on the Media screen ('' when none). */
  alt: string;
  /**
   * The file the address serves, as served (its bytes and Content-Type), once it is made: absent while the image's
   * variants are being made (the address serves a stand-in meanwhile) and when it failed.
   */
  file?: { bytes: number; type: string };
}

export interface MediaService {
  /**
   * Checks an upload (its bytes, its header against every limit), stores the original and answers at once with the
   * item `processing`; the media-variants job makes the variants after. `created` is false when the same bytes were
   * stored before.
   */
  upload(file: MediaUpload): Promise<{ media: MediaItem; created: boolean }>;
  /** A page of the library, newest first. */
  list(query: MediaListQuery): Promise<MediaList>;
  /** One image (to follow its processing). */
  get(id: string): Promise<MediaItem>;
  updateAlt(id: string, body: unknown): Promise<MediaItem>;
  remove(id: string): Promise<void>;
  /** Images whose variants are being made or wait their turn, across instances. */
  queued(): Promise<number>;
  /** Makes the variants of the images waiting now (what the media-variants job runs); resolves with how many. */
  processWaiting(): Promise<number>;
  /** A stored variant by its public file name, or undefined. */
  file(name: string): Promise<MediaFile | undefined>;
  /**
   * What the library knows of these image addresses (site paths `/media/<file>`; any other address, and a media
   * address of no stored image, is left out of the answer): one query for the lot.
   */
  describe(urls: readonly string[]): Promise<Map<string, MediaUrlFacts>>;
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
    state: media.state,
    ...(media.state === 'failed' ? { error: media.error ?? MEDIA_FAILED } : {}),
    usedBy: uses.filter((u) => u.hash === media.hash).map((u) => ({ id: u.postId, title: u.title, field: u.field, ...(u.deleted ? { deleted: true as const } : {}) })),
  };
}

/** Shown for an image that failed without a reason of its own (it broke the processing too often). */
export const MEDIA_FAILED = 'The image could not be processed. Upload it again, or save it in another format first.';
export const MEDIA_SOURCE_MISSING = 'The original of the image is missing. Upload it again.';
export const INVALID_MEDIA_CURSOR = 'The cursor is not valid. Start again from the first page.';
/** Runs on one image (a crash of the process counts) before it is failed rather than tried again. */
const MAX_ATTEMPTS = 3;
/**
 * How long a claim on an image holds unless renewed: its holder renews it every third of this while it makes the
 * variants, so a killed instance's image is free again after at most this (then the next poll of any instance takes it).
 */
export const MEDIA_CLAIM_MS = 45_000;

/** The original, kept in the store until its variants are made; not a public name (FILE_NAME refuses it). */
const sourceName = (hash: string) => `${hash}-source`;

export function encodeMediaCursor(media: Pick<StoredMedia, 'createdAt' | 'id'>): string {
  return Buffer.from(JSON.stringify([media.createdAt, media.id])).toString('base64url');
}

export function decodeMediaCursor(cursor: string): MediaPosition {
  try {
    const value: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (Array.isArray(value) && value.length === 2 && value.every((v) => typeof v === 'string' && v.length > 0 && v.length <= 100)) {
      return { createdAt: value[0] as string, id: value[1] as string };
    }
  } catch {
    // fall through: not base64url JSON
  }
  throw new InvalidInputError(INVALID_MEDIA_CURSOR, { code: 'invalid_cursor' });
}

const extOf = (name: string) => name.slice(name.lastIndexOf('.') + 1);

/**
 * While an image's variants are being made, the one to serve for a name not made yet: the same format at the nearest
 * width (the widest below, else the narrowest above), else WebP, else any still (the Open Graph JPEG last).
 */
function interimVariant(variants: readonly StoredMediaVariant[], width: number | undefined, ext: string): StoredMediaVariant | undefined {
  const og = (v: StoredMediaVariant) => v.name.endsWith('-og.jpg');
  const rank = (v: StoredMediaVariant) => (og(v) ? 3 : extOf(v.name) === ext ? 0 : v.format === 'webp' ? 1 : 2);
  const distance = (v: StoredMediaVariant) => (width === undefined ? -v.width : v.width <= width ? width - v.width : 100_000 + v.width - width);
  return [...variants].sort((a, b) => rank(a) - rank(b) || distance(a) - distance(b))[0];
}

/** The type the bytes say, checked against the name and the declared type (an SVG is refused). */
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

async function storedOrNotFound(repository: MediaRepository, id: string): Promise<StoredMedia> {
  // An id that no record can have (a NUL byte, which PostgreSQL refuses in text) is not looked up.
  const media = isRecordKey(id) ? await repository.byId(id) : undefined;
  if (!media) throw new NotFoundError('No such image.', { code: 'media_not_found' });
  return media;
}

/** What each media address serves: the image's alt text, and the file's size and type once it is made. */
async function describeMediaUrls(repository: MediaRepository, urls: readonly string[]): Promise<Map<string, MediaUrlFacts>> {
  // Each address as `file` reads it: the stored name it serves, and the Content-Type it is sent with.
  const wanted = new Map<string, { hash: string; name: string; ext: string }>();
  for (const url of urls) {
    const m = url.startsWith(MEDIA_PATH) ? FILE_NAME.exec(url.slice(MEDIA_PATH.length)) : null;
    if (m) wanted.set(url, { hash: m[1]!, name: m[2] ? `${m[1]}-${m[2]}.${m[3]}` : `${m[1]}-og.jpg`, ext: m[3]! });
  }
  const rows = new Map((await repository.byHashes([...new Set([...wanted.values()].map((w) => w.hash))])).map((row) => [row.hash, row]));
  const facts = new Map<string, MediaUrlFacts>();
  for (const [url, { hash, name, ext }] of wanted) {
    const row = rows.get(hash);
    if (!row) continue;
    // The file this address serves for good: made (a variant of that name), so neither a stand-in nor a failure.
    const made = row.state === 'failed' ? undefined : row.variants.find((v) => v.name === name);
    const type = MEDIA_CONTENT_TYPES[ext];
    facts.set(url, { alt: row.alt, ...(made && type && Number.isInteger(made.size) ? { file: { bytes: made.size, type } } : {}) });
  }
  return facts;
}

/** The file a media address names, else the nearest variant made so far while the image is processed. */
async function mediaFile(store: MediaStore, repository: MediaRepository, name: string, meanMs: number): Promise<MediaFile | undefined> {
  const m = FILE_NAME.exec(name);
  if (!m) return undefined;
  const [, hash, width, ext] = m;
  const stored = width ? `${hash}-${width}.${ext}` : `${hash}-og.jpg`;
  const body = await store.get(stored);
  if (body) return { body, contentType: MEDIA_CONTENT_TYPES[ext!]!, name: stored };
  // Not made yet? A page may use an image as soon as it is uploaded: it gets the nearest variant made so far.
  const media = await repository.byHash(hash!);
  if (!media || media.state !== 'processing') return undefined;
  const interim = interimVariant(media.variants, width ? Number(width) : undefined, width ? ext! : 'jpg');
  const interimBody = interim && (await store.get(interim.name));
  if (!interim || !interimBody) return { pending: true, retryAfterSeconds: Math.max(1, Math.min(30, Math.ceil(meanMs / 1000))) };
  return { body: interimBody, contentType: MEDIA_CONTENT_TYPES[extOf(interim.name)]!, name: interim.name, interim: true };
}

export function createMediaService(deps: {
  repository: MediaRepository;
  store: MediaStore;
  clock: Clock;
  logger: Logger;
  /** The media-variants job is a kind of this runner (every instance runs it; a claim per image). */
  jobs: Pick<JobRunner, 'add'>;
  /**
   * Images processed at once by this instance (MEDIA_JOBS, 1 by default) and images waiting past those
   * (MEDIA_QUEUE) before an upload is refused with 503 and Retry-After.
   */
  processing?: { concurrency: number; maxWaiting: number };
  /** The job's own poll (it is kicked by every upload); 10 s by default. */
  pollMs?: number;
  /** Makes one image's variants: a child process per image in the app (media-child.ts); in this process by default. */
  processor?: ImageProcessor;
  /**
   * Told which public pages show an image whose alt text changed or whose variants were just made (the feed's
   * enclosures name their sizes): the render cache drops them (lib/content-tags.ts), as for a post's own change.
   */
  onContentChange?: (tags: string[]) => void;
}): MediaService {
  const { repository, store, clock, logger } = deps;
  const processor = deps.processor ?? processImage;
  const concurrency = Math.max(1, deps.processing?.concurrency ?? 1);
  const maxWaiting = Math.max(0, deps.processing?.maxWaiting ?? 8);
  // The mean time of recent images (moving average), for Retry-After: a guess of 5 s until one has been made.
  let meanMs = 5_000;
  /** Deleted posts restorable since then still use their images. */
  const deletedSince = () => new Date(clock().getTime() - DELETED_POST_RETENTION_MS).toISOString();

  const getStored = (id: string) => storedOrNotFound(repository, id);

  /** The queue has room for one more image, or the upload is refused with a guess of when it will have. */
  async function checkRoom(): Promise<void> {
    const queued = await repository.countProcessing();
    // Counted, then stored: uploads at the same moment may pass one or two past the length. The queue holds stored
    // originals (not memory), and the job still makes `concurrency` images at a time, so that costs nothing but wait.
    if (queued < concurrency + maxWaiting) return;
    const seconds = Math.min(300, Math.max(1, Math.ceil(((queued - concurrency + 1) / concurrency) * (meanMs / 1000))));
    throw new UnavailableError(UPLOAD_MESSAGES.busy(seconds), { code: 'media_busy', retryAfterSeconds: seconds });
  }

  const usesOf = (media: StoredMedia) => repository.usesOf([media.hash], deletedSince());
  /** Uploads of each hash storing their original and row now, in this process (the files store's cleanup reads it). */
  const storing = new Map<string, number>();

  /** The published pages showing the image of `hash` are dropped from the render cache (nothing when none does). */
  async function tellPages(hash: string): Promise<void> {
    if (!deps.onContentChange) return;
    const tags = postChangeTags(...(await repository.pagesOf(hash)));
    if (tags.length > 0) deps.onContentChange(tags);
  }

  /** Makes one claimed image's variants, storing each as it is made; a deleted image's files are removed after. */
  async function processOne(media: StoredMedia, run: JobRun): Promise<void> {
    const made: StoredMediaVariant[] = [];
    const cleanUp = () => store.remove([...made.map((v) => v.name), sourceName(media.hash)]);
    // `attempts` counts the runs before this claim: an image that broke (or crashed) the processing that often fails.
    if (media.attempts >= MAX_ATTEMPTS) {
      await repository.fail(media.id, MEDIA_FAILED);
      await cleanUp();
      return;
    }
    const source = await store.get(sourceName(media.hash));
    if (!source) {
      await repository.fail(media.id, MEDIA_SOURCE_MISSING);
      return;
    }
    const started = performance.now();
    let gone = false;
    try {
      const processed = await processor(source, media.hash, media.format as MediaFormat, async (variant) => {
        await store.put(variant.name, variant.data);
        made.push({ name: variant.name, width: variant.width, height: variant.height, format: variant.format, size: variant.data.length });
        // The image deleted meanwhile: stop making what nobody will serve.
        if (!(await repository.setVariants(media.id, made))) {
          gone = true;
          throw new Error('deleted while processed');
        }
      });
      if (!(await repository.finish(media.id, { width: processed.width, height: processed.height, variants: made }))) gone = true;
      await store.remove(gone ? [...made.map((v) => v.name), sourceName(media.hash)] : [sourceName(media.hash)]);
      meanMs = meanMs * 0.7 + (performance.now() - started) * 0.3;
      // The feed names an image's size once its files are made: a feed made meanwhile went without its enclosure.
      if (!gone) await tellPages(media.hash).catch((err: unknown) => logger.warn({ err, mediaId: media.id }, 'could not tell which pages show a processed image'));
    } catch (error) {
      if (gone) {
        await cleanUp();
      } else if (error instanceof InvalidInputError) {
        // The image itself is at fault (truncated, corrupt past its header): said on the Media screen.
        await repository.fail(media.id, error.message);
        await cleanUp();
      } else {
        logger.warn({ err: error, mediaId: media.id, attempts: media.attempts + 1 }, 'image processing broke off; it will be tried again');
        await repository.release(media.id, new Date(run.now().getTime() + 30_000 * (media.attempts + 1)).toISOString());
      }
    }
  }

  // Every instance runs the job; an image is made by the instance whose claim on it succeeds.
  const job = deps.jobs.add({
    name: 'media-variants',
    pollMs: deps.pollMs ?? 10_000,
    // A large image takes seconds to a minute: the holder renews its claim while it works (renewClaim), so the lease
    // can be short and a killed instance's image is taken over within MEDIA_CLAIM_MS and a poll (docs/operating.md).
    claimMs: MEDIA_CLAIM_MS,
    budgetMs: 10 * 60_000,
    async run(run) {
      let done = 0;
      const worker = async () => {
        while (!run.signal.aborted) {
          const next = await repository.nextToProcess(run.now().toISOString());
          if (!next) return;
          // Lost to another worker or instance: look again (it no longer shows as free).
          const token = randomUUID();
          if (!(await repository.claim(next.id, run.now().toISOString(), run.leaseUntil().toISOString(), token))) continue;
          const renewal = setInterval(() => {
            void repository.renewClaim(next.id, token, run.leaseUntil().toISOString()).catch((err: unknown) => logger.warn({ err, mediaId: next.id }, 'could not renew the claim on an image being processed'));
          }, MEDIA_CLAIM_MS / 3);
          renewal.unref();
          try {
            await processOne(next, run);
          } finally {
            clearInterval(renewal);
          }
          done += 1;
        }
      };
      await Promise.all(Array.from({ length: concurrency }, worker));
      return { done };
    },
  });
  const kick = () => void job.kick().catch((err: unknown) => logger.error({ err }, 'could not start the media-variants job'));

  return {
    storeKind: store.kind,
    queued: () => repository.countProcessing(),
    processWaiting: async () => (await job.kick())?.done ?? 0,
    async upload(upload) {
      // The name as shown and stored: no control or text-direction characters (a NUL is a 500 on PostgreSQL), bounded.
      const file = { ...upload, filename: cleanMediaFilename(upload.filename) };
      const format = await checkType(file);
      const alt = mediaAltSchema.parse({ alt: file.alt ?? '' }).alt;
      const hash = (await sha256(file.path)).slice(0, 24);
      const existing = await repository.byHash(hash);
      if (existing?.state === 'failed') {
        // Uploaded again after it failed: tried anew (a broken-off run may not break twice).
        await checkRoom();
        await store.put(sourceName(hash), await readFile(file.path));
        await repository.restart(existing.id);
        kick();
        return { media: itemOf({ ...existing, state: 'processing', error: undefined, variants: [], attempts: 0 }, await usesOf(existing)), created: false };
      }
      if (existing) return { media: itemOf(existing, await usesOf(existing)), created: false };
      // The header alone, checked against every limit: the answer does not wait for a pixel to be decoded.
      const inspected = await inspectImage(file.path, format);
      await checkRoom();
      const media: StoredMedia = {
        id: randomUUID(),
        hash,
        filename: file.filename || `${MEDIA_FILENAME_FALLBACK}.${MEDIA_FORMATS[format].ext}`,
        alt,
        format,
        width: inspected.width,
        height: inspected.height,
        bytes: file.size,
        variants: [],
        createdAt: clock().toISOString(),
        state: 'processing',
        attempts: 0,
      };
      // A row always names an original that exists, and an upload that fails leaves neither behind: in the database
      // store both are written in one transaction; in files the original is written first and removed if the row fails.
      const original = await readFile(file.path);
      storing.set(hash, (storing.get(hash) ?? 0) + 1);
      try {
        if (store.kind === 'database') {
          await repository.insert(media, { name: sourceName(hash), content: original });
        } else {
          await store.put(sourceName(hash), original);
          await repository.insert(media);
        }
      } catch (error) {
        // The same bytes uploaded at once through another request or instance: its row won.
        const winner = await repository.byHash(hash);
        if (winner) return { media: itemOf(winner, []), created: false };
        // Another upload of these bytes in this process may still be about to store its row: its original stays.
        if (store.kind === 'files' && storing.get(hash) === 1) {
          await store.remove([sourceName(hash)]).catch((err: unknown) => logger.warn({ err, hash }, 'could not remove the original of a failed upload'));
        }
        throw error;
      } finally {
        const left = (storing.get(hash) ?? 1) - 1;
        if (left > 0) storing.set(hash, left);
        else storing.delete(hash);
      }
      kick();
      return { media: itemOf(media, []), created: true };
    },
    async list(query) {
      const rows = await repository.page(query.limit + 1, query.cursor ? decodeMediaCursor(query.cursor) : undefined);
      const media = rows.slice(0, query.limit);
      const uses = new Map<string, StoredMediaUse[]>();
      for (const use of await repository.usesOf(media.map((m) => m.hash), deletedSince())) uses.set(use.hash, [...(uses.get(use.hash) ?? []), use]);
      return {
        media: media.map((m) => itemOf(m, uses.get(m.hash) ?? [])),
        nextCursor: rows.length > query.limit ? encodeMediaCursor(media.at(-1)!) : null,
      };
    },
    async get(id) {
      const media = await getStored(id);
      return itemOf(media, await usesOf(media));
    },
    async updateAlt(id, body) {
      const { alt } = mediaAltSchema.parse(body ?? {});
      const media = await getStored(id);
      await repository.setAlt(id, alt);
      // The alt text is the image's on the posts that show it (their pages and cards).
      if (alt !== media.alt) await tellPages(media.hash);
      return itemOf({ ...media, alt }, await usesOf(media));
    },
    async remove(id) {
      const media = await getStored(id);
      const uses = await usesOf(media);
      if (uses.length > 0) {
        const titles = [...new Set(uses.map((u) => `"${u.title}"${u.deleted ? ' (deleted, can be restored for 30 days)' : ''}`))].join(', ');
        throw new ConflictError(`This image is used by ${titles}. Choose another image there first.`, { code: 'media_in_use' });
      }
      await repository.remove(id);
      // A run making its variants now sees the row gone and removes what it makes after this.
      await store.remove([...media.variants.map((v) => v.name), sourceName(media.hash)]);
    },
    describe: (urls) => describeMediaUrls(repository, urls),
    file: (name) => mediaFile(store, repository, name, meanMs),
  };
}
