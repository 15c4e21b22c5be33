import type { Generated } from 'kysely';

/** The media library (migrations/0012-media.ts). */
export interface MediaTables {
  media: {
    id: string;
    /** First 24 hex digits of the SHA-256 of the uploaded bytes: the stem of every stored file's name. */
    hash: string;
    filename: string;
    alt: string;
    /** jpeg, png, webp, avif or gif (sniffed from the bytes). */
    format: string;
    /** Size of the largest stored variant (the media URL's). */
    width: number;
    height: number;
    bytes: number;
    /** JSON array of { name, width, height, format, size }. */
    variants: string;
    created_at: string;
    /** processing (variants being made, migrations/0021-media-processing.ts), ready or failed. */
    state: Generated<string>;
    /** Why processing failed, in words for the owner; null otherwise. */
    error: string | null;
    /** Until when the `media-variants` job of one instance holds the row (compare-and-set); null when free. */
    claimed_until: string | null;
    /** The token of that claim (migration 0035): only its holder renews it; null when free. */
    claim_token?: string | null;
    /** Processing runs started on the row (a crash counts too): past the limit the row fails. */
    attempts: Generated<number>;
  };
  /** Stored variant files when the database is the store (PostgreSQL: shared by every instance). */
  media_blobs: { name: string; content: Buffer; size: number; created_at: string };
  /**
   * Where each image is used (migrations/0015-media-usage.ts): one row per post and image field naming a
   * `/media/<hash>-…` URL, rewritten with every write of the post in its transaction (media-usage-repository.ts).
   */
  media_usage: {
    post_id: string;
    /** featuredImage or ogImage. */
    field: string;
    hash: string;
    /** The post's title as last written (a deleted post's, as it was). */
    title: string;
    /** When the post was deleted (it can be restored, with its images, for 30 days after); null while it exists. */
    deleted_at: string | null;
  };
}
