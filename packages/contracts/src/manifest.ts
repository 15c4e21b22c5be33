import { z } from 'zod';
import { REMOTE_NAMES, type RemoteName } from './app-names';
import { SHARED_SINGLETONS } from './release-compat';

// Re-exported from where they are defined: a bundle that needs only the names does not load this module's schemas.
export { REMOTE_NAMES, type RemoteName } from './app-names';

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
  /** The link-preview image's size in pixels (og:image:width and og:image:height), when it is known. */
  imageWidth: z.number().int().positive().optional(),
  imageHeight: z.number().int().positive().optional(),
  jsonLd: z.union([z.record(z.string(), z.unknown()), z.array(z.record(z.string(), z.unknown()))]).optional(),
  /** A page that should not be indexed (the admin panel). */
  noindex: z.boolean().optional(),
});
export type PageMeta = z.infer<typeof pageMetaSchema>;

/**
 * Server data a dynamic page may ask for in its route table (`data: { source, param }`), by what it is, never by
 * the page: the server loads it with its own services, passes it to the route's `head`, and answers 404 when it
 * does not exist. `post`: the published blog post whose slug is the param; `analysis-report`: the stored analysis
 * whose id is the param; `post-list`: the first page of published posts (`GET /api/posts`) the page shows, for the
 * category whose slug is the param, or without one for the URL's own `q` and `category` (server rendering only: it
 * is never a 404).
 */
export const ROUTE_DATA_SOURCES = ['post', 'analysis-report', 'post-list'] as const;
export type RouteDataSourceName = (typeof ROUTE_DATA_SOURCES)[number];

/** What a build was made against (`BuiltWith` in ./release-compat): the shared packages' versions, the server contract. */
export const builtWithSchema = z.object({
  shared: z.partialRecord(z.enum(SHARED_SINGLETONS), z.string().min(1).max(100)),
  serverContract: z.number().int().min(1),
});

const distModulePath = z.string().regex(/^(?!\/)(?!.*(?:^|\/)\.\.(?:\/|$))[\w./-]+\.m?js$/, 'a .js path inside the dist');

/**
 * `dist/mfe-manifest.json` of one remote. `routes` are react-router patterns
 * (`/blog`, `/blog/:slug`, `/admin/*`): the shell and the server match URLs against them.
 */
export const mfeManifestSchema = z.object({
  name: z.enum(REMOTE_NAMES),
  version: z.string().min(1),
  routes: z.array(z.string().startsWith('/')).min(1),
  pages: z.array(pageMetaSchema).optional(),
  /**
   * The remote's server module(s), paths relative to its dist. `routes`: the route table as a Node ES module
   * exporting `routes` (path, `data`, `head(params, data)` of each route), which the server imports to render the
   * head of dynamic pages. Optional: without it, dynamic pages get the default head.
   */
  server: z
    .object({
      routes: distModulePath.optional(),
      /**
       * The server entry (`server/entry.js`, of the manifest's `version`): exports `routes` and
       * `render(url, { data, signal })`; contract: docs/deploying-a-remote.md. Every string here is a file.
       */
      entry: distModulePath.optional(),
    })
    .refine((s) => s.routes || s.entry, 'names `routes` or `entry`')
    .optional(),
  /** The remote's stylesheets, relative to its dist: a server-rendered page links them so it paints styled. */
  styles: z.array(z.string().regex(/^(?!\/)(?!.*(?:^|\/)\.\.(?:\/|$))[\w./-]+\.css$/, 'a .css path inside the dist')).optional(),
  /**
   * What the remote was built against. A release whose shared singletons the serving shell cannot satisfy (or of
   * another server contract) is refused by the deploy and not served. Absent in builds older than the check.
   */
  builtWith: builtWithSchema.optional(),
});
export type MfeManifest = z.infer<typeof mfeManifestSchema>;

/** `shell/dist/shell-manifest.json`: the shell's version and what it provides to the remotes. */
export const shellManifestSchema = z.object({ name: z.literal('shell'), version: z.string().min(1), builtWith: builtWithSchema });
export type ShellManifest = z.infer<typeof shellManifestSchema>;

/**
 * `/remotes.json`: what the shell needs to load each remote at run time. Partial: a remote that is not
 * deployed is simply absent, and its paths render not-found. `owns`: the site's ownership patterns of the remote
 * (route-ownership.ts): the shell gives a path to the remote whose pattern covers it most specifically.
 */
export const remotesMapSchema = z.partialRecord(
  z.enum(REMOTE_NAMES),
  z.object({ entry: z.string().min(1), version: z.string(), routes: z.array(z.string()), owns: z.array(z.string()).optional() }),
);
export type RemotesMap = z.infer<typeof remotesMapSchema>;
export type RemoteInfo = NonNullable<RemotesMap[RemoteName]>;

/**
 * One served remote in `/api/health`. `version`: the version served now (its release folder's name).
 * `remoteEntry`: its `remoteEntry.js` is there (`external` when REMOTE_<NAME>_URL hosts it elsewhere).
 * `serverEntry`: its server module imported (`none` when it has none). When the release `current` names is not
 * served (missing, incomplete, or its server module does not load), `failedRelease` says which and why, and
 * `lastKnownGood` names the earlier release served instead (the same as `version`).
 */
export const remoteHealthSchema = z.object({
  version: z.string(),
  remoteEntry: z.enum(['ok', 'missing', 'external']).optional(),
  serverEntry: z.enum(['ok', 'failed', 'none']).optional(),
  serverError: z.string().optional(),
  lastKnownGood: z.string().optional(),
  failedRelease: z.object({ version: z.string(), reason: z.string() }).optional(),
  /** The release the remote's pointer names (absent while its dist is served in place, before any release). */
  pointer: z.string().optional(),
  /** When this instance started serving `version` (ISO time). */
  since: z.string().optional(),
  /**
   * The served release's page views and errors over the alert window, every instance added up (issue 34): `rate` is
   * (render + client errors) / page views, null without page views; `failing` when it is at or above the threshold
   * over enough page views, which makes the whole answer's status `degraded`.
   */
  errors: z
    .object({
      pageViews: z.number().int().min(0),
      renderErrors: z.number().int().min(0),
      clientErrors: z.number().int().min(0),
      rate: z.number().min(0).nullable(),
      failing: z.boolean(),
    })
    .optional(),
  /**
   * Releases shared by every instance (DATABASE_URL on PostgreSQL): the shared pointer's release, when it moved, and
   * what each instance that reported lately serves (`self`: the one answering).
   */
  shared: z
    .object({
      pointer: z.string(),
      since: z.string(),
      instances: z.array(
        z.object({ instance: z.string(), self: z.boolean(), version: z.string().nullable(), since: z.string().nullable(), problem: z.string().nullable() }),
      ),
    })
    .optional(),
});
export type RemoteHealth = z.infer<typeof remoteHealthSchema>;

/** The render cache of the instance answering (admin view of `/api/health`): how often pages were sent as kept. */
export const renderCacheHealthSchema = z.object({
  hits: z.number().int(),
  staleHits: z.number().int(),
  misses: z.number().int(),
  coalesced: z.number().int(),
  entries: z.number().int(),
  bytes: z.number().int(),
  maxBytes: z.number().int(),
  hitRatio: z.number().nullable(),
});

export type RenderCacheHealth = z.infer<typeof renderCacheHealthSchema>;

export const healthSchema = z.object({
  /** `down`: a dependency the site needs does not answer (listed in `down`); `degraded`: a served release is failing. */
  status: z.enum(['ok', 'degraded', 'down']),
  version: z.string(),
  db: z.enum(['ok', 'down']),
  /** What does not answer (present only while something is down), e.g. `['database']`. */
  down: z.array(z.enum(['database'])).optional(),
  remotes: z.record(z.string(), remoteHealthSchema),
  renderCache: renderCacheHealthSchema.optional(),
  /**
   * The data disk: `full` (status `degraded`; reads still work, writes answer 507) after a write failed for want of
   * room, or while free space is under DISK_MIN_FREE. Absent where the server does not track it.
   */
  disk: z.enum(['ok', 'full']).optional(),
  /** Why the disk is full, the last failed write (its error code, file, time) and the free bytes: admin view only. */
  diskDetail: z
    .object({
      reason: z.string().optional(),
      lastFailure: z.object({ code: z.string(), path: z.string().optional(), at: z.string() }).optional(),
      freeBytes: z.number().optional(),
    })
    .optional(),
});
export type Health = z.infer<typeof healthSchema>;
