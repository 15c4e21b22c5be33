import { z } from 'zod';

export const REMOTE_NAMES = ['marketing', 'analysis', 'blog', 'admin'] as const;
export type RemoteName = (typeof REMOTE_NAMES)[number];

/** Search metadata of one static page, rendered into the served HTML so crawlers need no JavaScript. */
export const pageMetaSchema = z.object({
  path: z.string().startsWith('/'),
  title: z.string().min(1),
  description: z.string().min(1),
  canonical: z.string().optional(),
  keywords: z.array(z.string()).optional(),
  ogType: z.string().optional(),
  /** Link-preview image (og:image), absolute or a site path. */
  image: z.string().optional(),
  jsonLd: z.union([z.record(z.string(), z.unknown()), z.array(z.record(z.string(), z.unknown()))]).optional(),
  /** A page that should not be indexed (the admin panel). */
  noindex: z.boolean().optional(),
});
export type PageMeta = z.infer<typeof pageMetaSchema>;

/**
 * `dist/mfe-manifest.json` of one remote. `routes` are react-router patterns
 * (`/blog`, `/blog/:slug`, `/admin/*`): the shell and the server match URLs against them.
 */
export const mfeManifestSchema = z.object({
  name: z.enum(REMOTE_NAMES),
  version: z.string().min(1),
  routes: z.array(z.string().startsWith('/')).min(1),
  pages: z.array(pageMetaSchema).optional(),
});
export type MfeManifest = z.infer<typeof mfeManifestSchema>;

/**
 * `/remotes.json`: what the shell needs to load each remote at run time. Partial: a remote that is not
 * deployed is simply absent, and its paths render not-found.
 */
export const remotesMapSchema = z.partialRecord(
  z.enum(REMOTE_NAMES),
  z.object({ entry: z.string().min(1), version: z.string(), routes: z.array(z.string()) }),
);
export type RemotesMap = z.infer<typeof remotesMapSchema>;
export type RemoteInfo = NonNullable<RemotesMap[RemoteName]>;

export const healthSchema = z.object({
  status: z.enum(['ok', 'degraded']),
  version: z.string(),
  db: z.enum(['ok', 'down']),
  remotes: z.record(z.string(), z.object({ version: z.string() })),
});
export type Health = z.infer<typeof healthSchema>;
