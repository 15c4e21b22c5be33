/*
 * The site's apps by name, as data alone: code that must not load zod (the one-file deploy tool, site-deploy.mjs) reads
 * them here; manifest.ts and deploys.ts re-export them with their schemas.
 */

/** The four remotes. */
export const REMOTE_NAMES = ['marketing', 'analysis', 'blog', 'admin'] as const;
export type RemoteName = (typeof REMOTE_NAMES)[number];

/** The five apps of the release model: the shell and the four remotes. */
export const APP_NAMES = ['shell', ...REMOTE_NAMES] as const;
export type AppName = (typeof APP_NAMES)[number];
