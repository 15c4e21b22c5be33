import type { Kysely } from 'kysely';
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

export interface MediaRepository {
  insert(media: StoredMedia): Promise<void>;
  byId(id: string): Promise<StoredMedia | undefined>;
  byHash(hash: string): Promise<StoredMedia | undefined>;
  list(limit: number): Promise<StoredMedia[]>;
  setAlt(id: string, alt: string): Promise<boolean>;
  remove(id: string): Promise<boolean>;
  /**
   * The posts (any status) whose image fields point at one of these media hashes; with `deletedSince`, also the posts
   * deleted since then (still restorable) whose last version did. Read from media_usage, which every post write keeps
   * (media-usage-repository.ts): an index lookup per hash, whatever the number of posts.
   */
  usesOf(hashes: readonly string[], deletedSince?: string): Promise<StoredMediaUse[]>;
}

type Row = Database['media'];

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
  };
}

export function createMediaRepository(db: Kysely<Database>): MediaRepository {
  return {
    async insert(media) {
      await db
        .insertInto('media')
        .values({
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
        })
        .execute();
    },
    async byId(id) {
      const row = await db.selectFrom('media').selectAll().where('id', '=', id).executeTakeFirst();
      return row ? fromRow(row) : undefined;
    },
    async byHash(hash) {
      const row = await db.selectFrom('media').selectAll().where('hash', '=', hash).executeTakeFirst();
      return row ? fromRow(row) : undefined;
    },
    async list(limit) {
      const rows = await db.selectFrom('media').selectAll().orderBy('created_at', 'desc').orderBy('id').limit(limit).execute();
      return rows.map(fromRow);
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
  };
}

/** Variant files kept in the database (PostgreSQL bytea): every instance reads the same ones. */
export interface MediaBlobsRepository {
  put(name: string, content: Buffer): Promise<void>;
  get(name: string): Promise<Buffer | undefined>;
  remove(names: readonly string[]): Promise<void>;
}

export function createMediaBlobsRepository(db: Kysely<Database>, clock: () => Date): MediaBlobsRepository {
  return {
    async put(name, content) {
      // Content-addressed: a name already stored holds these very bytes.
      await db
        .insertInto('media_blobs')
        .values({ name, content, size: content.length, created_at: clock().toISOString() })
        .onConflict((oc) => oc.column('name').doNothing())
        .execute();
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
