import { z } from 'zod';
import { REMOTE_NAMES } from './manifest';
import { MAX_REMOTE_ERROR_MESSAGE, RELEASE_LABEL, REMOTE_ERROR_KINDS } from './events-rules';

/*
 * Errors per release (issue 34): what the browser reports of a remote's failure (a `remote_error` tracking event), and
 * what the admin reads back per app and release.
 */

/**
 * The props of a `remote_error` event, and nothing else: the remote, the release the browser was running (its remotes
 * map says), what failed (`render`: its error boundary caught a crash; `chunk`: one of its code files did not load;
 * `load`: its remoteEntry.js did not load) and the error's first line, cut to MAX_REMOTE_ERROR_MESSAGE. Never a stack.
 */
export const remoteErrorPropsSchema = z
  .object({
    app: z.enum(REMOTE_NAMES),
    release: z.string().regex(RELEASE_LABEL, { message: 'A release version: letters, digits, . _ + -, at most 64' }),
    kind: z.enum(REMOTE_ERROR_KINDS),
    message: z.string().max(MAX_REMOTE_ERROR_MESSAGE).optional(),
  })
  .strict();
export type RemoteErrorProps = z.infer<typeof remoteErrorPropsSchema>;

/**
 * The props of a `remote_view` event: the shell moved inside the site (not the document's first page, which the server
 * counts) to a page of this remote, running this release.
 */
export const remoteViewPropsSchema = z
  .object({
    app: z.enum(REMOTE_NAMES),
    release: z.string().regex(RELEASE_LABEL, { message: 'A release version: letters, digits, . _ + -, at most 64' }),
  })
  .strict();
export type RemoteViewProps = z.infer<typeof remoteViewPropsSchema>;

/**
 * Page views and errors of one release over a stretch of time. `rate`: the errors that decide per page view, null
 * without page views: server render errors, plus browser errors once at least `minReporters` distinct visitors
 * (`clientReporters`) reported them (a few addresses' reports never decide).
 */
export const releaseCountsSchema = z.object({
  pageViews: z.number().int().min(0),
  renderErrors: z.number().int().min(0),
  clientErrors: z.number().int().min(0),
  /** The distinct visitors (addresses, an IPv6 one per /64) who reported the browser errors. */
  clientReporters: z.number().int().min(0).optional(),
  rate: z.number().min(0).nullable(),
});
export type ReleaseCounts = z.infer<typeof releaseCountsSchema>;

export const releaseErrorRowSchema = z.object({
  app: z.enum(REMOTE_NAMES),
  release: z.string(),
  /** This instance serves it now. */
  served: z.boolean(),
  /** The alert window (RELEASE_ERROR_WINDOW_MINUTES, 15 by default), every instance added up. */
  window: releaseCountsSchema,
  /** The last 24 hours. */
  day: releaseCountsSchema,
  /** Its rate is at or above the threshold, over at least the minimum page views, in the window. */
  failing: z.boolean(),
  /** The latest client error message of the last 24 hours, as a browser sent it: visitor text, show it escaped. */
  lastError: z.string().nullable(),
});
export type ReleaseErrorRow = z.infer<typeof releaseErrorRowSchema>;

/** `GET /api/admin/release-errors`: every release with page views or errors in the last 24 hours, and the served ones. */
export const releaseErrorsSchema = z.object({
  windowMinutes: z.number().int().min(1),
  /**
   * A release fails when its rate is at least `rate` (a fraction: 0.02 is 2%) over at least `minPageViews` page views;
   * browser errors count toward it once at least `minReporters` distinct visitors reported them.
   */
  threshold: z.object({ rate: z.number().min(0).max(1), minPageViews: z.number().int().min(1), minReporters: z.number().int().min(1).optional() }),
  releases: z.array(releaseErrorRowSchema),
});
export type ReleaseErrors = z.infer<typeof releaseErrorsSchema>;
