import type { Kysely } from 'kysely';
import type { Database } from '../db/schema';

/** The hash in a `/media/<hash>-…` URL (absolute or site path), or undefined. */
const HASH_IN_URL = /\/media\/([0-9a-f]{24})-/;

export const mediaHashIn = (value: string | null | undefined): string | undefined => (value ? HASH_IN_URL.exec(value)?.[1] : undefined);

/** A post's image fields as a write stores them; `deletedAt` for a deleted post that can still be restored. */
export interface PostImages {
  title: string;
  featuredImage: string | null | undefined;
  ogImage: string | null | undefined;
  deletedAt: string | null;
}

/**
 * Rewrites the media a post uses (table media_usage) from what a write stores: called inside the write's transaction
 * (posts-repository), so the media library never sees a post without its uses. `null`: the post is gone for good.
 */
export async function writeMediaUsage(trx: Kysely<Database>, postId: string, images: PostImages | null): Promise<void> {
  await trx.deleteFrom('media_usage').where('post_id', '=', postId).execute();
  if (!images) return;
  const rows = (
    [
      ['featuredImage', images.featuredImage],
      ['ogImage', images.ogImage],
    ] as const
  ).flatMap(([field, url]) => {
    const hash = mediaHashIn(url);
    return hash ? [{ post_id: postId, field, hash, title: images.title, deleted_at: images.deletedAt }] : [];
  });
  if (rows.length > 0) await trx.insertInto('media_usage').values(rows).execute();
}

/** The image fields of a revision's snapshot (the post as a write stored it). */
export function imagesOfSnapshot(snapshot: Record<string, unknown>, deletedAt: string | null): PostImages {
  const text = (value: unknown) => (typeof value === 'string' ? value : null);
  return { title: text(snapshot.title) ?? '', featuredImage: text(snapshot.featuredImage), ogImage: text(snapshot.ogImage), deletedAt };
}
