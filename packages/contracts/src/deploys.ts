import { z } from 'zod';
import { APP_NAMES, type AppName } from './app-names';
import { REMOTE_NAMES } from './manifest';
import { releaseCountsSchema } from './release-errors';

/*
 * Deploys over HTTP (issue 33): the apps a team may ship alone, the deploy tokens the admin hands to a team's CI (each
 * for the apps it names, shown once, stored hashed), the releases an app has, and the deploy log (every deploy,
 * rollback and refusal, recorded as it happens).
 */

/** The five apps of the release model: the shell and the four remotes (app-names.ts). */
export { APP_NAMES, type AppName };
export const appNameSchema = z.enum(APP_NAMES);

export const DEPLOY_TOKEN_LIMITS = { nameMax: 80, tokensMax: 50 } as const;

export const DEPLOY_MESSAGES = {
  name: `Give the token a name of 1 to ${DEPLOY_TOKEN_LIMITS.nameMax} characters (e.g. "blog CI").`,
  apps: 'Pick at least one app the token may deploy.',
  tooMany: `The site has ${DEPLOY_TOKEN_LIMITS.tokensMax} deploy tokens: revoke one first.`,
  notFound: 'No deploy token has this id.',
  missingToken: 'Send a deploy token: Authorization: Bearer <token>.',
  badToken: 'This deploy token is not valid (revoked, or never issued).',
  wrongApp: (app: string) => `This deploy token may not deploy ${app}.`,
} as const;

/** POST /api/admin/deploy-tokens */
export const deployTokenCreateSchema = z.object({
  name: z.string({ error: DEPLOY_MESSAGES.name }).trim().min(1, DEPLOY_MESSAGES.name).max(DEPLOY_TOKEN_LIMITS.nameMax, DEPLOY_MESSAGES.name),
  apps: z
    .array(appNameSchema, { error: DEPLOY_MESSAGES.apps })
    .min(1, DEPLOY_MESSAGES.apps)
    .transform((apps) => [...new Set(apps)]),
});
export type DeployTokenCreate = z.infer<typeof deployTokenCreateSchema>;

/** A deploy token as listed (never the token itself). */
export const deployTokenSchema = z.object({
  id: z.string(),
  name: z.string(),
  apps: z.array(appNameSchema),
  createdAt: z.string(),
  lastUsedAt: z.string().nullable(),
  /** The address of its last use. */
  lastUsedFrom: z.string().nullable(),
});
export type DeployToken = z.infer<typeof deployTokenSchema>;
export const deployTokenListSchema = z.object({ tokens: z.array(deployTokenSchema) });

/** 201 of POST /api/admin/deploy-tokens: the token, shown this once. */
export const deployTokenCreatedSchema = deployTokenSchema.extend({ token: z.string() });
export type DeployTokenCreated = z.infer<typeof deployTokenCreatedSchema>;

/** What the deploy log records. */
export const DEPLOY_ACTIONS = ['deploy', 'rollback', 'stage', 'promote', 'canary', 'canary_rollback'] as const;

/** One line of the deploy log. */
export const deployLogEntrySchema = z.object({
  id: z.string(),
  at: z.string(),
  app: appNameSchema,
  /**
   * `stage`: stored, checked and signed, served to no one (a preview link shows it); `promote`: a staged release served
   * to everyone; `canary`: a staged release served to a share of visitors (started, or its share changed);
   * `canary_rollback`: a canary ended with everyone back on the served release (by itself when its error rate passed
   * the threshold, the message says why; or stopped by a rollback request).
   */
  action: z.enum(DEPLOY_ACTIONS),
  /** The release it was about (null when refused before one was named). */
  version: z.string().nullable(),
  /** What was served before (a deploy or rollback that went through). */
  previous: z.string().nullable(),
  result: z.enum(['ok', 'refused', 'failed']),
  /** Who: a deploy token's name, or `npm run deploy` on the serving machine. */
  by: z.string(),
  /** The caller's address (HTTP), or null. */
  from: z.string().nullable(),
  /** Why it was refused or failed, in full. */
  message: z.string().nullable(),
  /** Where the release came from, as its upload named it (`?notes=`, `?commit=`, `?ciUrl=`); a promotion, canary or rollback of it carries its upload's. */
  notes: z.string().nullable().optional(),
  commit: z.string().nullable().optional(),
  ciUrl: z.string().nullable().optional(),
  /**
   * A staged release still staged: its preview link (a fresh one, valid PREVIEW_LINK_HOURS), which opens the site with
   * it for that browser only. Absent otherwise.
   */
  previewUrl: z.string().optional(),
});
export type DeployLogEntry = z.infer<typeof deployLogEntrySchema>;

export const deployLogQuerySchema = z.object({
  app: appNameSchema.optional(),
  cursor: z.string().max(200).optional(),
  limit: z.coerce.number().int().min(1).max(100).default(20),
});
/**
 * A canary running (issue 34): a staged release of a remote served to `percent` of visitors (sticky per visitor: a
 * cookie), the others getting `current`, with both releases' page views and errors since it started (within the
 * error window; every instance added up).
 */
export const canaryStatusSchema = z.object({
  app: z.enum(REMOTE_NAMES),
  /** The release on trial (still a staged release). */
  version: z.string(),
  /** The served release, which the other visitors get. */
  current: z.string(),
  percent: z.number().int().min(1).max(99),
  startedAt: z.string(),
  /** When it is served to everyone by itself, unless rolled back before (null: when the team promotes it). */
  promoteAfter: z.string().nullable(),
  /** Who started it (a deploy token's name). */
  by: z.string(),
  /** Where the counts below start: the canary's start, or the error window's start when that is later. */
  countedSince: z.string(),
  /** The canary release's page views and errors since `countedSince`. */
  canary: releaseCountsSchema,
  /** The served release's, over the same minutes. */
  served: releaseCountsSchema,
});
export type CanaryStatus = z.infer<typeof canaryStatusSchema>;

/**
 * When a canary is rolled back by itself: its error rate at least `maxRate` (a fraction) and at least `ratio` times the
 * served release's, over at least `minPageViews` of its page views. Its browser errors count toward the rate once at
 * least `minReporters` distinct visitors reported them; server render errors always count.
 */
export const canaryRulesSchema = z.object({
  maxRate: z.number().min(0).max(1),
  ratio: z.number().min(0),
  minPageViews: z.number().int().min(1),
  minReporters: z.number().int().min(1).optional(),
});
export type CanaryRules = z.infer<typeof canaryRulesSchema>;

export const deployLogPageSchema = z.object({
  entries: z.array(deployLogEntrySchema),
  nextCursor: z.string().nullable(),
  /** The first page (no cursor): the canaries running now, with their live split and error rates. */
  canaries: z.array(canaryStatusSchema).optional(),
  /** The first page: when a canary is rolled back by itself. */
  canaryRules: canaryRulesSchema.optional(),
});
export type DeployLogPage = z.infer<typeof deployLogPageSchema>;

/** GET /api/releases/{app}: what is stored, which is served, by whom and when. */
export const appReleasesSchema = z.object({
  app: appNameSchema,
  served: z.object({ version: z.string(), since: z.string(), by: z.string().nullable() }).nullable(),
  releases: z.array(
    z.object({
      version: z.string(),
      createdAt: z.string(),
      files: z.number().int(),
      current: z.boolean(),
      /** Who deployed it, when the log says. */
      by: z.string().nullable(),
      /** Uploaded staged and not promoted: served to no one but a browser with its preview link. */
      staged: z.boolean(),
    }),
  ),
});
export type AppReleases = z.infer<typeof appReleasesSchema>;

export const RELEASE_PROVENANCE_LIMITS = { notesMax: 500, ciUrlMax: 500 } as const;
const CI_URL = /^https?:\/\/([A-Za-z][\w-]*(\.[A-Za-z][\w-]*)*|(25[0-5]|2[0-4]\d|1?\d?\d)(\.(25[0-5]|2[0-4]\d|1?\d?\d)){3})(:[1-5]?\d{1,4})?([/?#][\x21-\x7E]*)?$/;
export const RELEASE_PROVENANCE_MESSAGES = {
  notes: `notes is at most ${RELEASE_PROVENANCE_LIMITS.notesMax} characters.`,
  commit: 'commit is a commit sha: 7 to 40 hexadecimal digits.',
  ciUrl: `ciUrl is an http(s) URL of at most ${RELEASE_PROVENANCE_LIMITS.ciUrlMax} characters (the pipeline run).`,
} as const;

/**
 * Where an upload comes from (issue 52), the query parameters of POST /api/releases/{app}: kept with the release and
 * every deploy log entry about it, shown on the Deploys screen and in GET /api/releases/{app}/status.
 */
export const releaseProvenanceSchema = z.object({
  notes: z.string().max(RELEASE_PROVENANCE_LIMITS.notesMax, RELEASE_PROVENANCE_MESSAGES.notes).optional().describe('What this release is, in a line (at most 500 characters)'),
  commit: z
    .string()
    .regex(/^[0-9a-fA-F]{7,40}$/, RELEASE_PROVENANCE_MESSAGES.commit)
    .transform((sha) => sha.toLowerCase())
    .optional()
    .describe('The commit it was built from: 7 to 40 hexadecimal digits'),
  ciUrl: z
    .string()
    .max(RELEASE_PROVENANCE_LIMITS.ciUrlMax, RELEASE_PROVENANCE_MESSAGES.ciUrl)
    // A host name (or an IPv4 address), a port below 60000, printable characters after: every match is a URL, and the
    // description's pattern says exactly what is taken.
    .regex(CI_URL, RELEASE_PROVENANCE_MESSAGES.ciUrl)
    .optional()
    .describe('The pipeline run that built it: an http(s) URL of at most 500 characters'),
});
export type ReleaseProvenance = z.infer<typeof releaseProvenanceSchema>;

const provenanceFields = {
  notes: z.string().nullable(),
  commit: z.string().nullable(),
  ciUrl: z.string().nullable(),
};

/**
 * GET /api/releases/{app}/status (issue 52): what a team's own token may see of its app: the served release, the staged
 * ones, the canary with its live error rates, and the app's last 20 deploy log entries with their reasons.
 */
export const appStatusSchema = z.object({
  app: appNameSchema,
  served: z.object({ version: z.string(), since: z.string(), by: z.string().nullable(), ...provenanceFields }).nullable(),
  /** Stored staged, served to no one (a running canary's release among them), newest first. */
  staged: z.array(z.object({ version: z.string(), createdAt: z.string(), by: z.string().nullable(), ...provenanceFields })),
  /**
   * The canary running now: its share, and both releases' figures since it started (within the error window, every
   * instance added up). `errors` and the rates count server render errors, and browser errors once enough distinct
   * visitors reported them, as the automatic rollback counts them; a rate is null without page views.
   */
  canary: z
    .object({
      version: z.string(),
      /** The served release, which the other visitors get. */
      current: z.string(),
      percent: z.number().int().min(1).max(99),
      startedAt: z.string(),
      promoteAfter: z.string().nullable(),
      pageViews: z.number().int().min(0),
      errors: z.number().int().min(0),
      errorRate: z.number().min(0).nullable(),
      servedPageViews: z.number().int().min(0),
      servedErrors: z.number().int().min(0),
      servedErrorRate: z.number().min(0).nullable(),
    })
    .nullable(),
  /** The app's last 20 deploy log entries, newest first; `reason`: why it was refused, failed or rolled back (or what a canary serves). */
  log: z.array(
    z.object({
      action: z.enum(DEPLOY_ACTIONS),
      version: z.string().nullable(),
      previous: z.string().nullable(),
      at: z.string(),
      result: z.enum(['ok', 'refused', 'failed']),
      reason: z.string().nullable(),
      by: z.string(),
      ...provenanceFields,
    }),
  ),
});
export type AppStatus = z.infer<typeof appStatusSchema>;

/** POST /api/releases/{app}/rollback */
export const rollbackRequestSchema = z.object({ version: z.string().regex(/^[A-Za-z0-9][\w.+-]{0,99}$/, 'A release name: letters, digits, . _ + - (not first), at most 100 characters.').optional() }).strict();

export const CANARY_MESSAGES = {
  percent: 'percent is a whole number from 1 to 100: the share of visitors served this release (100: everyone).',
  promoteAfter: 'promoteAfter is a date and time with its offset (2026-11-28T09:00:00Z), when the canary is served to everyone.',
} as const;

/**
 * POST /api/releases/{app}/promote: the staged release to serve to everyone, or with `percent` (1 to 99) to that share of
 * visitors as a canary (100, or promoting it again without `percent`, serves it to everyone). `promoteAfter`: when a
 * canary is served to everyone by itself unless it was rolled back before.
 */
export const promoteRequestSchema = z
  .object({
    version: z.string().regex(/^[A-Za-z0-9][\w.+-]{0,99}$/, 'A release name: letters, digits, . _ + - (not first), at most 100 characters.'),
    percent: z.number({ error: CANARY_MESSAGES.percent }).int(CANARY_MESSAGES.percent).min(1, CANARY_MESSAGES.percent).max(100, CANARY_MESSAGES.percent).optional(),
    promoteAfter: z.iso.datetime({ offset: true, error: CANARY_MESSAGES.promoteAfter }).optional(),
    /** Serve it even though its version is below the served one (semver); the deploy log records the downgrade. */
    allowDowngrade: z.boolean({ error: 'allowDowngrade is true or false.' }).optional(),
  })
  .strict();
export type PromoteRequest = z.infer<typeof promoteRequestSchema>;

/** How long a preview link (and the cookie it sets) lasts. */
export const PREVIEW_LINK_HOURS = 24;

/** 201 of a deploy, 200 of a rollback or a promotion. */
export const releaseChangeSchema = z.object({
  app: appNameSchema,
  version: z.string(),
  /** What was served before (a staged upload: what stays served). */
  previous: z.string().nullable(),
  /** What was checked before the switch (or before it was stored, staged). */
  checked: z.array(z.string()),
  /** Uploaded with `?stage=1`: stored and checked, served to no one. */
  staged: z.boolean().optional(),
  /** A staged upload's preview link: opens the site with this release for that browser only (PREVIEW_LINK_HOURS). */
  previewUrl: z.string().optional(),
  /** A canary: the share of visitors served `version` (the others keep `previous`). */
  percent: z.number().int().min(1).max(99).optional(),
  /** A canary's time to be served to everyone by itself. */
  promoteAfter: z.string().optional(),
  /** `?dryRun=1`: every check passed and nothing was stored (`version` is the name it would have). */
  dryRun: z.literal(true).optional(),
});
export type ReleaseChange = z.infer<typeof releaseChangeSchema>;

/**
 * Local development against the live site (issue 52): POST /api/releases/{app}/dev-override. Its link sets a cookie in
 * one browser that makes the shell load `entryUrl` for that app (rendered in the browser, never on the server).
 */
export const DEV_OVERRIDE_DEFAULT_HOURS = 8;
export const DEV_OVERRIDE_LIMITS = { entryUrlMax: 500 } as const;
export const DEV_OVERRIDE_MESSAGES = {
  entryUrl: `entryUrl is the URL of the remote's remoteEntry.js, at most ${DEV_OVERRIDE_LIMITS.entryUrlMax} characters.`,
  notUrl: 'entryUrl is not a URL: give the full address of remoteEntry.js, e.g. http://localhost:5174/mfe/blog/assets/remoteEntry.js.',
  protocol: 'entryUrl must be https, or http on this computer (localhost, 127.0.0.1 or [::1]): a page of the site never loads code over plain http from another host.',
  credentials: 'entryUrl must not carry a user name or password.',
  shell: 'The shell cannot be overridden: a development override replaces one remote (marketing, analysis or blog).',
  admin: "The admin cannot be overridden: its pages never run a development override, nor does a browser logged into it. Develop the admin against a local server.",
  signed:
    "This site takes only signed releases (RELEASE_TRUSTED_KEYS is set), so a development override may load code only from the developer's own computer: entryUrl must be on localhost, 127.0.0.1 or [::1].",
} as const;

/** Loopback host names as `URL#hostname` spells them. */
const LOOPBACK_HOST = /^(?:localhost|127(?:\.\d{1,3}){3}|\[::1\])$/i;

/** Why `value` may not be a development override's entry URL, or null when it may (https, or http on loopback). */
export function devOverrideEntryRefusal(value: string): string | null {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return DEV_OVERRIDE_MESSAGES.notUrl;
  }
  if (url.username || url.password) return DEV_OVERRIDE_MESSAGES.credentials;
  if (url.protocol === 'https:') return null;
  if (url.protocol === 'http:' && LOOPBACK_HOST.test(url.hostname)) return null;
  return DEV_OVERRIDE_MESSAGES.protocol;
}

/**
 * Whether an accepted entry URL is on the developer's own computer (a loopback host, http or https). A site that takes
 * only signed releases accepts no other: an https origin anywhere would run unsigned code on the site's own origin.
 */
export function devOverrideEntryIsLoopback(value: string): boolean {
  try {
    return LOOPBACK_HOST.test(new URL(value).hostname);
  } catch {
    return false;
  }
}

/**
 * What the OpenAPI document says of an entry URL (JSON Schema has no URL parser): https on a host name, or http on a
 * loopback address, an optional port and a path. Every string it matches passes devOverrideEntryRefusal; the server
 * checks with that function, which also takes an https address by IP.
 */
const PORT = '(?:[1-9]\\d{0,3}|[1-5]\\d{4}|6[0-4]\\d{3}|65[0-4]\\d{2}|655[0-2]\\d|6553[0-5])';
const OCTET = '(?:25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)';
export const DEV_OVERRIDE_ENTRY_PATTERN = `^(?:https://(?:[A-Za-z0-9-]+\\.)*[A-Za-z][A-Za-z0-9-]*|http://(?:localhost|127(?:\\.${OCTET}){3}|\\[::1\\]))(?::${PORT})?(?:/[!-~]*)?$`;

export const devOverrideRequestSchema = z
  .object({
    entryUrl: z
      .string({ error: DEV_OVERRIDE_MESSAGES.entryUrl })
      .min(1, DEV_OVERRIDE_MESSAGES.entryUrl)
      .max(DEV_OVERRIDE_LIMITS.entryUrlMax, DEV_OVERRIDE_MESSAGES.entryUrl)
      .superRefine((value, ctx) => {
        const refusal = devOverrideEntryRefusal(value);
        if (refusal) ctx.addIssue({ code: 'custom', message: refusal });
      })
      .meta({ pattern: DEV_OVERRIDE_ENTRY_PATTERN })
      .describe("The URL of the remote's remoteEntry.js on the developer's machine (http on localhost, 127.0.0.1 or [::1]) or on https"),
  })
  .strict();
export type DevOverrideRequest = z.infer<typeof devOverrideRequestSchema>;

/** 201 of POST /api/releases/{app}/dev-override. */
export const devOverrideCreatedSchema = z.object({
  /** Opened in a browser: sets that browser's override cookie and shows the app's first page. */
  url: z.string(),
  app: appNameSchema,
  entryUrl: z.string(),
  /** When the link and the cookie it sets stop working. */
  expiresAt: z.string(),
});
export type DevOverrideCreated = z.infer<typeof devOverrideCreatedSchema>;
