import type { Kysely, Selectable } from 'kysely';
import type { Database } from '../db/schema';

/** One stored file of an image (a width in a format, or the Open Graph JPEG). */
export interface StoredMediaVariant {
  name: string;
  width: number;
  height: number;
  format: string;
  size: number;
}

export interface StoredMedia {
  id: string;
  hash: string;
  filename: string;
  alt: string;
  format: string;
  width: number;
  height: number;
  bytes: number;
  variants: StoredMediaVariant[];
  createdAt: string;
  /** processing: its variants are being made (media-variants job); ready; failed (`error` says why). */
  state: MediaState;
  error?: string;
  /** Processing runs started on it. */
  attempts: number;
}

export type MediaState = 'processing' | 'ready' | 'failed';

/** Where a page of the library starts: after this image (newest first). */
export interface MediaPosition {
  createdAt: string;
  id: string;
}

/** A post whose featuredImage or ogImage names a media file. */
export interface StoredMediaUse {
  hash: string;
  postId: string;
  title: string;
  field: 'featuredImage' | 'ogImage';
  /** A deleted post that can still be restored (its last version uses the image). */
  deleted?: true;
}

/** A post (not deleted) whose image fields name a media file: what says which of its public pages show the image. */
export interface StoredMediaPage {
  slug: string;
  categorySlug: string;
  status: string;
}

export interface MediaRepository {
  /**
   * Stores a new image's row; with `original` (the database is the store), the original's file too, in the same
   * transaction: a row that cannot be stored leaves no file behind.
   */
  insert(media: StoredMedia, original?: { name: string; content: Buffer }): Promise<void>;
  byId(id: string): Promise<StoredMedia | undefined>;
  byHash(hash: string): Promise<StoredMedia | undefined>;
  /** The images of these hashes (a page of posts' images: a unique-index lookup each). */
  byHashes(hashes: readonly string[]): Promise<StoredMedia[]>;
  /** Newest first, by keyset on (created_at, id): `limit` images after `after` (an index range, whatever the total). */
  page(limit: number, after?: MediaPosition): Promise<StoredMedia[]>;
  /** Images whose variants are being made or wait their turn (the job's queue, from its index). */
  countProcessing(): Promise<number>;
  /** The oldest image waiting for processing that no instance holds now. */
  nextToProcess(now: string): Promise<StoredMedia | undefined>;
  /**
   * Takes an image for processing until `until`: true for exactly one caller of any instance (compare-and-set on
   * `claimed_until`, the same SQL on SQLite and PostgreSQL); counts the attempt.
   */
  claim(id: string, now: string, until: string, token?: string): Promise<boolean>;
  /** Extends the claim of `token` to `until` (its holder, while it works); false when that claim no longer holds. */
  renewClaim(id: string, token: string, until: string): Promise<boolean>;
  /** The variants made so far (the claim holder writes them as they are made). */
  setVariants(id: string, variants: StoredMediaVariant[]): Promise<boolean>;
  /** Processing done: its final size and variants; false when the image was deleted meanwhile. */
  finish(id: string, done: { width: number; height: number; variants: StoredMediaVariant[] }): Promise<boolean>;
  /** Processing failed for good: `error` is shown to the owner; the variants are gone. */
  fail(id: string, error: string): Promise<boolean>;
  /** A run that broke off (not the image's fault): free it for another try from `retryAt`. */
  release(id: string, retryAt: string): Promise<void>;
  /** A failed image uploaded again: processed anew from its first attempt. */
  restart(id: string): Promise<void>;
  setAlt(id: string, alt: string): Promise<boolean>;
  remove(id: string): Promise<boolean>;
  /**
   * The posts (any status) whose image fields point at one of these media hashes; with `deletedSince`, also the posts
   * deleted since then (still restorable) whose last version did. Read from media_usage, which every post write keeps
   * (media-usage-repository.ts): an index lookup per hash, whatever the number of posts.
   */
  usesOf(hashes: readonly string[], deletedSince?: string): Promise<StoredMediaUse[]>;
  /** The posts (not deleted) that use the image of this hash, with what names their public pages (media_usage's index). */
  pagesOf(hash: string): Promise<StoredMediaPage[]>;
}

type Row = Selectable<Database['media']>;

function fromRow(row: Row): StoredMedia {
  return {
    id: row.id,
    hash: row.hash,
    filename: row.filename,
    alt: row.alt,
    format: row.format,
    width: Number(row.width),
    height: Number(row.height),
    bytes: Number(row.bytes),
    variants: JSON.parse(row.variants) as StoredMediaVariant[],
    createdAt: row.created_at,
    state: row.state as MediaState,
    ...(row.error ? { error: row.error } : {}),
    attempts: Number(row.attempts),
  };
}

export function createMediaRepository(db: Kysely<Database>): MediaRepository {
  return {
    async insert(media, original) {
      const row = {
        id: media.id,
        hash: media.hash,
        filename: media.filename,
        alt: media.alt,
        format: media.format,
        width: media.width,
        height: media.height,
        bytes: media.bytes,
        variants: JSON.stringify(media.variants),
        created_at: media.createdAt,
        state: media.state,
        error: media.error ?? null,
        claimed_until: null,
        attempts: media.attempts,
      };
      if (!original) {
        await db.insertInto('media').values(row).execute();
        return;
      }
      await db.transaction().execute(async (trx) => {
        await putBlob(trx, original.name, original.content, media.createdAt);
        await trx.insertInto('media').values(row).execute();
      });
    },
    async byId(id) {
      const row = await db.selectFrom('media').selectAll().where('id', '=', id).executeTakeFirst();
      return row ? fromRow(row) : undefined;
    },
    async byHash(hash) {
      const row = await db.selectFrom('media').selectAll().where('hash', '=', hash).executeTakeFirst();
      return row ? fromRow(row) : undefined;
    },
    async byHashes(hashes) {
      if (hashes.length === 0) return [];
      const rows = await db.selectFrom('media').selectAll().where('hash', 'in', [...new Set(hashes)]).execute();
      return rows.map(fromRow);
    },
    async page(limit, after) {
      let query = db.selectFrom('media').selectAll();
      if (after) {
        query = query.where((eb) =>
          eb.or([eb('created_at', '<', after.createdAt), eb.and([eb('created_at', '=', after.createdAt), eb('id', '<', after.id)])]),
        );
      }
      const rows = await query.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(limit).execute();
      return rows.map(fromRow);
    },
    async countProcessing() {
      const row = await db.selectFrom('media').select((eb) => eb.fn.countAll<number | string>().as('n')).where('state', '=', 'processing').executeTakeFirstOrThrow();
      return Number(row.n);
    },
    async nextToProcess(now) {
      const row = await db
        .selectFrom('media')
        .selectAll()
        .where('state', '=', 'processing')
        .where((eb) => eb.or([eb('claimed_until', 'is', null), eb('claimed_until', '<=', now)]))
        .orderBy('created_at')
        .orderBy('id')
        .limit(1)
        .executeTakeFirst();
      return row ? fromRow(row) : undefined;
    },
    async claim(id, now, until, token) {
      const result = await db
        .updateTable('media')
        .set((eb) => ({ claimed_until: until, claim_token: token ?? null, attempts: eb('attempts', '+', 1) }))
        .where('id', '=', id)
        .where('state', '=', 'processing')
        .where((eb) => eb.or([eb('claimed_until', 'is', null), eb('claimed_until', '<=', now)]))
        .executeTakeFirst();
      return Number(result.numUpdatedRows) > 0;
    },
    async renewClaim(id, token, until) {
      const result = await db
        .updateTable('media')
        .set({ claimed_until: until })
        .where('id', '=', id)
        .where('claim_token', '=', token)
        .where('state', '=', 'processing')
        .executeTakeFirst();
      return Number(result.numUpdatedRows) > 0;
    },
    async setVariants(id, variants) {
      const result = await db.updateTable('media').set({ variants: JSON.stringify(variants) }).where('id', '=', id).executeTakeFirst();
      return Number(result.numUpdatedRows) > 0;
    },
    async finish(id, done) {
      const result = await db
        .updateTable('media')
        .set({ width: done.width, height: done.height, variants: JSON.stringify(done.variants), state: 'ready', error: null, claimed_until: null })
        .where('id', '=', id)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) > 0;
    },
    async fail(id, error) {
      const result = await db.updateTable('media').set({ state: 'failed', error, variants: '[]', claimed_until: null }).where('id', '=', id).executeTakeFirst();
      return Number(result.numUpdatedRows) > 0;
    },
    async release(id, retryAt) {
      await db.updateTable('media').set({ claimed_until: retryAt }).where('id', '=', id).where('state', '=', 'processing').execute();
    },
    async restart(id) {
      await db.updateTable('media').set({ state: 'processing', error: null, attempts: 0, claimed_until: null, variants: '[]' }).where('id', '=', id).execute();
    },
    async setAlt(id, alt) {
      const result = await db.updateTable('media').set({ alt }).where('id', '=', id).executeTakeFirst();
      return Number(result.numUpdatedRows) > 0;
    },
    async remove(id) {
      const result = await db.deleteFrom('media').where('id', '=', id).executeTakeFirst();
      return Number(result.numDeletedRows) > 0;
    },
    async usesOf(hashes, deletedSince) {
      if (hashes.length === 0) return [];
      const rows = await db
        .selectFrom('media_usage')
        .select(['hash', 'post_id', 'title', 'field', 'deleted_at'])
        .where('hash', 'in', [...new Set(hashes)])
        .where((eb) => (deletedSince === undefined ? eb('deleted_at', 'is', null) : eb.or([eb('deleted_at', 'is', null), eb('deleted_at', '>=', deletedSince)])))
        .execute();
      // Posts that exist first, then the deleted ones; each post's featured image before its Open Graph image.
      const key = (r: (typeof rows)[number]) => `${r.deleted_at === null ? 0 : 1}\u0000${r.post_id}\u0000${r.field}`;
      rows.sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));
      return rows.map((r) => ({
        hash: r.hash,
        postId: r.post_id,
        title: r.title,
        field: r.field as StoredMediaUse['field'],
        ...(r.deleted_at === null ? {} : { deleted: true as const }),
      }));
    },
    async pagesOf(hash) {
      const rows = await db
        .selectFrom('media_usage')
        .innerJoin('blog_posts', 'blog_posts.id', 'media_usage.post_id')
        .select(['blog_posts.slug', 'blog_posts.category_slug', 'blog_posts.status'])
        .distinct()
        .where('media_usage.hash', '=', hash)
        .where('media_usage.deleted_at', 'is', null)
        .execute();
      return rows.map((r) => ({ slug: r.slug, categorySlug: r.category_slug, status: r.status }));
    },
  };
}

/** Variant files kept in the database (PostgreSQL bytea): every instance reads the same ones. */
export interface MediaBlobsRepository {
  put(name: string, content: Buffer): Promise<void>;
  get(name: string): Promise<Buffer | undefined>;
  remove(names: readonly string[]): Promise<void>;
}

async function putBlob(db: Kysely<Database>, name: string, content: Buffer, at: string): Promise<void> {
  // Content-addressed: a name already stored holds these very bytes.
  await db
    .insertInto('media_blobs')
    .values({ name, content, size: content.length, created_at: at })
    .onConflict((oc) => oc.column('name').doNothing())
    .execute();
}

export function createMediaBlobsRepository(db: Kysely<Database>, clock: () => Date): MediaBlobsRepository {
  return {
    async put(name, content) {
      await putBlob(db, name, content, clock().toISOString());
    },
    async get(name) {
      const row = await db.selectFrom('media_blobs').select('content').where('name', '=', name).executeTakeFirst();
      if (!row) return undefined;
      const content = row.content as unknown;
      return Buffer.isBuffer(content) ? content : Buffer.from(content as Uint8Array);
    },
    async remove(names) {
      if (names.length === 0) return;
      await db.deleteFrom('media_blobs').where('name', 'in', [...names]).execute();
    },
  };
}
