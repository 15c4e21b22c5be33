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
  variants: z.array(mediaVariantSchema),
  usedBy: z.array(mediaUsageSchema),
});
export type MediaItem = z.infer<typeof mediaItemSchema>;

export const mediaListSchema = z.object({ media: z.array(mediaItemSchema) });
export type MediaList = z.infer<typeof mediaListSchema>;

export const MEDIA_ALT_MAX = 300;
export const mediaAltSchema = z.object({
  alt: z.string({ error: 'must be text' }).trim().max(MEDIA_ALT_MAX, { error: `must be at most ${MEDIA_ALT_MAX} characters` }),
});
