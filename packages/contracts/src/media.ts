import { z } from 'zod';

/**
 * The media library's answers (`/api/admin/media`). The rules (formats, sizes, widths, URL names) are in
 * ./media-rules, which has no zod.
 */
export * from './media-rules';

export const mediaVariantSchema = z.object({ url: z.string(), width: z.number().int(), height: z.number().int(), format: z.string() });
export type MediaVariant = z.infer<typeof mediaVariantSchema>;

export const mediaUsageSchema = z.object({
  id: z.string(),
  title: z.string(),
  field: z.enum(['featuredImage', 'ogImage']),
  /** Set for a deleted post that can still be restored (Posts, Recently deleted): its image must stay. */
  deleted: z.literal(true).optional(),
});

export const mediaItemSchema = z.object({
  id: z.string(),
  /** The largest variant in the upload's format: what a post's featuredImage holds. */
  url: z.string(),
  /** The 1200x630 JPEG for Open Graph: what a post's ogImage holds. */
  ogUrl: z.string(),
  width: z.number().int(),
  height: z.number().int(),
  format: z.string(),
  alt: z.string(),
  filename: z.string(),
  /** Bytes of the uploaded file. */
  bytes: z.number().int(),
  createdAt: z.string(),
  /**
   * The variants made so far: the upload answers once the original is stored and checked (`processing`), and the
   * variants follow, made one image at a time off the request path; a page uses the ones that exist.
   */
  variants: z.array(mediaVariantSchema),
  /** processing: variants are being made (a post may use the image already); ready: all made; failed: see `error`. */
  state: z.enum(['processing', 'ready', 'failed']),
  /** Why the variants could not be made (a failed image), in words for the owner. */
  error: z.string().optional(),
  usedBy: z.array(mediaUsageSchema),
});
export type MediaItem = z.infer<typeof mediaItemSchema>;

/** One page of the library, newest first: `nextCursor` reads the next (older) page, null on the last. */
export const mediaListSchema = z.object({ media: z.array(mediaItemSchema), nextCursor: z.string().nullable() });
export type MediaList = z.infer<typeof mediaListSchema>;

export const MEDIA_ALT_MAX = 300;
export const mediaAltSchema = z.object({
  alt: z.string({ error: 'must be text' }).trim().max(MEDIA_ALT_MAX, { error: `must be at most ${MEDIA_ALT_MAX} characters` }),
});

export const MEDIA_PAGE_DEFAULT = 24;
export const MEDIA_PAGE_MAX = 100;
/** GET /api/admin/media: `cursor` from the previous page's `nextCursor`, `limit` images per page. */
export const mediaListQuerySchema = z.object({
  cursor: z.string().max(400, { error: 'must be at most 400 characters' }).optional(),
  limit: z.coerce
    .number({ error: 'must be a number' })
    .int({ error: 'must be a whole number' })
    .min(1, { error: 'must be at least 1' })
    .max(MEDIA_PAGE_MAX, { error: `must be at most ${MEDIA_PAGE_MAX}` })
    .default(MEDIA_PAGE_DEFAULT),
});
export type MediaListQuery = z.infer<typeof mediaListQuerySchema>;
