import type { Kysely } from 'kysely';
import type { Database } from '../db/schema';
import { lastDeleteRevisions } from '../posts/posts-repository';

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
   * deleted since then (still restorable) whose last version did.
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

/** The hash in a `/media/<hash>-…` URL (absolute or site path), or null. */
const HASH_IN_URL = /\/media\/([0-9a-f]{24})-/;

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
        .selectFrom('blog_posts')
        .select(['id', 'title', 'featured_image', 'og_image'])
        .where((eb) => eb.or(hashes.flatMap((h) => [eb('featured_image', 'like', `%/media/${h}-%`), eb('og_image', 'like', `%/media/${h}-%`)])))
        .execute();
      const wanted = new Set(hashes);
      const uses: StoredMediaUse[] = [];
      for (const row of rows) {
        for (const [field, value] of [
          ['featuredImage', row.featured_image],
          ['ogImage', row.og_image],
        ] as const) {
          const hash = value ? HASH_IN_URL.exec(value)?.[1] : undefined;
          if (hash && wanted.has(hash)) uses.push({ hash, postId: row.id, title: row.title, field });
        }
      }
      if (deletedSince === undefined) return uses;
      // A deleted post's last revision holds the post as it was: restoring it brings its images back.
      const deleted = await lastDeleteRevisions(db)
        .select(['r.post_id', 'r.snapshot'])
        .where('r.created_at', '>=', deletedSince)
        .where((eb) => eb.or(hashes.map((h) => eb('r.snapshot', 'like', `%/media/${h}-%`))))
        .execute();
      for (const row of deleted) {
        const post = JSON.parse(row.snapshot) as { title?: unknown; featuredImage?: unknown; ogImage?: unknown };
        for (const field of ['featuredImage', 'ogImage'] as const) {
          const value = post[field];
          const hash = typeof value === 'string' ? HASH_IN_URL.exec(value)?.[1] : undefined;
          if (hash && wanted.has(hash)) uses.push({ hash, postId: row.post_id, title: typeof post.title === 'string' ? post.title : '', field, deleted: true });
        }
      }
      return uses;
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
