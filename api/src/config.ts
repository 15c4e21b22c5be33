import { parseTrustedKeys, type TrustedKey } from './site/releases/release-signature';
import { DEFAULT_RELEASE_LIMITS, releasePolicy, type ReleasePolicy } from './site/releases/release-policy';
import { DEFAULT_APP_ROUTES, OWNERSHIP_PATTERN, ownerOfPath, ownershipTable } from '@site/contracts/route-ownership';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { REMOTE_NAMES, type RemoteName } from '@site/contracts/manifest';

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

/** Typed, validated settings of one API process. Built once by `loadConfig`. */
export interface Config {
  port: number;
  host: string;
  /** Absolute directory holding the SQLite file and other local state. */
  dataDir: string;
  /** PostgreSQL connection string; SQLite under `dataDir` when absent. */
  databaseUrl: string | undefined;
  /** Redis (REDIS_URL): rate limits shared by every instance; per-process limits when absent. */
  redisUrl: string | undefined;
  /** REDIS_KEY_PREFIX: put before every key the site writes in Redis (empty by default). */
  redisKeyPrefix: string | undefined;
  /** Origin used for canonical links, without a trailing slash. */
  publicOrigin: string;
  adminPassword: string | undefined;
  adminPasswordHash: string | undefined;
  webhookSecret: string | undefined;
  /**
   * WEBHOOK_ALLOW_PRIVATE_TARGETS (off by default): outgoing webhooks may go to loopback and private-network addresses
   * (a self-hosted n8n on the same network). Link-local and cloud metadata addresses stay refused. Optional so configs
   * built by hand (tests) need not name it.
   */
  webhookAllowPrivateTargets?: boolean;
  smtpUrl: string | undefined;
  googlePlacesApiKey: string | undefined;
  yelpApiKey: string | undefined;
  /** `REMOTE_<NAME>_URL`: a remote entry served from elsewhere instead of `/mfe/<name>/`. */
  remoteUrls: Partial<Record<RemoteName, string>>;
  logLevel: LogLevel;
  /** Directory holding `shell/dist` and `mfe-<name>/dist`. */
  siteRoot: string;
  /** Largest accepted request body, in bytes. */
  bodyLimit: number;
  /**
   * DISK_MIN_FREE (default 50mb): free space on DATA_DIR's file system under which /api/health says the disk is full
   * (`degraded`), before writes start failing.
   */
  diskMinFreeBytes: number;
  /** Trust `X-Forwarded-*` from a reverse proxy (client IP, https). */
  trustProxy: boolean;
  /**
   * How many proxies in front of us append to X-Forwarded-For (TRUST_PROXY_HOPS, default 1): the client address is
   * that many entries from the right, never the leftmost one, which the client writes itself (Koa `maxIpsCount`).
   */
  trustProxyHops: number;
  /** Slow-client limits (ms): the header block, the whole request, and silence while a body is being read. */
  headersTimeoutMs: number;
  requestTimeoutMs: number;
  bodyIdleTimeoutMs: number;
  /** Scales every rate limit (RATE_LIMIT_MULTIPLIER, default 1); load tests and e2e raise it. */
  rateLimitMultiplier: number;
  /** Where contact-form mails go (CONTACT_EMAIL_TO) and who they come from (MAIL_FROM). */
  contactEmailTo: string;
  mailFrom: string;
  /**
   * TEST ONLY (ANALYSIS_TEST_ONLY_ALLOW_LOOPBACK=1): the server process (server.ts) lets the website analyzer read
   * loopback addresses on any port, so browser tests can analyze a local test site. createApp never reads it.
   * Off by default; refused when NODE_ENV=production.
   */
  analysisTestOnlyAllowLoopback: boolean;
  /**
   * SSR_TIMEOUT_MS (default 150): how long a remote's server render may take; past it the page goes out with that
   * remote's area rendered in the browser. Optional so configs built by hand (tests) need not name it.
   */
  ssrTimeoutMs?: number;
  /**
   * SSR_CONCURRENCY (default 4) server renders run at a time, the next ones waiting their turn; one that waits longer
   * than SSR_QUEUE_MS (default 2000) goes out to be rendered in the browser (site/render-queue.ts). Optional as above.
   */
  ssrConcurrency?: number;
  ssrQueueMs?: number;
  /**
   * RELEASE_POLL_MS (default 5000): with DATABASE_URL on PostgreSQL, how often an instance also checks the shared
   * release pointers, behind the LISTEN notice it gets when a deploy commits (site/release-sync.ts).
   */
  releasePollMs?: number;
  /**
   * RELEASE_IMPORT_BUILDS (default `first`): a build never changes what is served by itself. On a site's first start
   * each remote's built `mfe-<name>/dist` is imported as its first release (`1.0.0+build.<hash>`), the rollback target
   * of the first deploy; after that only a deploy changes what is served. `changed` (what `npm start` sets, which builds
   * in order to serve) also imports a build that differs from the served release while that release is itself an
   * imported build (never over a deployed, rolled back or promoted one); `off` serves the dist in place while
   * a remote has no release (the way it was before releases).
   */
  releaseImportBuilds?: 'first' | 'changed' | 'off';
  /**
   * RELEASE_SMOKE_RENDER_TIMEOUT_MS (default 10000, at most 20000): before an uploaded release is stored, staged or not,
   * every page it declares is rendered on a worker thread with the site's data (site/releases/smoke-render.ts); one
   * that throws, or a release not rendered within this long (its server code's loading included), is refused with 400
   * `smoke_render_failed`. At most 20 s: a deploy on PostgreSQL holds its transaction open meanwhile. Optional as above.
   */
  releaseSmokeRenderTimeoutMs?: number;
  /**
   * RELEASE_TRUSTED_KEYS: the Ed25519 public keys whose signatures this server trusts, each for the apps it names
   * (`<apps>=<SPKI base64>`, comma-separated; site/releases/release-signature.ts). Set: a remote's release runs only
   * when a key trusted for that remote signed exactly its files. Empty (the default, the local quick start): releases
   * are not signed, and anyone who can write the release store (the disk, or the database on PostgreSQL) runs code.
   */
  releaseTrustedKeys?: TrustedKey[];
  /**
   * What a release may declare (issue 51; site/releases/release-policy.ts), checked at upload and again at load:
   * - APP_ROUTES_<APP> (MARKETING, ANALYSIS, BLOG, ADMIN): the paths the app owns, comma-separated ownership patterns
   *   (`/roi-calculator` that path, `/local-services/*` it and below, `/blog*` every path starting so). Defaults:
   *   marketing `/`, `/local-services/*`, `/case-studies/*`, `/restaurant-order-bot`, `/retail-customer-service`,
   *   `/service-business-automation`, `/roi-calculator`; analysis `/free-analysis/*`, `/website-analysis*`; blog
   *   `/blog*`; admin `/admin*`. `/api`, `/mfe`, `/media`, `/assets`, the feed, the sitemaps, `/robots.txt` and
   *   `/remotes.json` are the server's and no app may own them. A release declaring a route or page outside its app's
   *   patterns is refused; the shell and the server give a path to its most specific owner.
   * - RELEASE_MAX_ROUTES (default 200), RELEASE_MAX_PAGES (default 200), RELEASE_MAX_MANIFEST_KB (default 256): the
   *   most routes, pages and manifest bytes one release may carry.
   * Absent (configs built by hand): the defaults.
   */
  releasePolicy?: ReleasePolicy;
  /** RENDER_CACHE_MB (default 64; 0 turns it off): memory for rendered public pages (site/render-cache.ts), in bytes. */
  renderCacheBytes?: number;
  /**
   * DB_STATEMENT_TIMEOUT_MS (default 5000; 0 turns it off): the longest one database statement of a request or a job may
   * run (waiting on a lock included) before it is cancelled and the request answers 503 `database_unavailable`, the log
   * naming the query. On SQLite, how long a statement waits for another process's write lock. Migrations at start have
   * no such limit. Optional so configs built by hand (tests) need not name it.
   */
  dbStatementTimeoutMs?: number;
  /**
   * DB_ACQUIRE_TIMEOUT_MS (default 5000): the longest a request waits for a database connection (every pooled one busy,
   * or the server not answering the connect) before it answers 503 `database_unavailable`. Optional as above.
   */
  dbAcquireTimeoutMs?: number;
  /**
   * READY_DB_GRACE_MS (default 30000): `/api/health/ready` answers 503 only once the database has not answered anything
   * (a statement or a ping) for this long; a slow query or a locked table never fails it (docs/operating.md). Optional.
   */
  readyDbGraceMs?: number;
  /**
   * Image processing (media/, the media-variants job, after the upload has answered): MEDIA_JOBS (default 1) images
   * processed at once per instance, MEDIA_QUEUE (default 8) more stored and waiting their turn (past that an upload
   * answers 503 with Retry-After), MEDIA_THREADS (default 1) libvips threads per
   * operation, MEDIA_CACHE_MB (default 0, off) libvips' operation cache, MEDIA_MAX_MB (default 1024) the memory one
   * image's process may take before it is stopped and the image failed. Optional as above.
   */
  mediaJobs?: number;
  mediaQueue?: number;
  /** CONTACT_MAIL_RATE (default 5): owner mails sent a second at most while the outbox drains (docs/operating.md). Optional as above. */
  contactMailRate?: number;
  mediaThreads?: number;
  mediaCacheMb?: number;
  mediaMaxMb?: number;
  /**
   * SITEMAP_URLS_PER_FILE (default 10000, at most the protocol's 50000): past this many URLs `/sitemap.xml` is a
   * sitemap index of parts (`/sitemaps/pages.xml`, `/sitemaps/posts-<n>.xml`), each at most this many URLs.
   */
  sitemapUrlsPerFile?: number;
  /** RETENTION_DELIVERY_DAYS (default 30): finished outgoing webhook deliveries and their attempts are kept this long. */
  retentionDeliveryDays?: number;
  /** RETENTION_EVENT_DAYS (default 90): raw tracking events older than this are rolled up into daily counts. */
  retentionEventDays?: number;
  /** RETENTION_ANALYSIS_DAYS (default 365): stored analyses are deleted after this, unless opened in the last 90 days. */
  retentionAnalysisDays?: number;
  /** RETENTION_RELEASE_DAYS (default 30): shared releases (PostgreSQL) this recent are never pruned. */
  retentionReleaseDays?: number;
  /** RETENTION_RELEASE_KEEP (default 10): besides its pointer, each remote keeps this many of its rollback stack's last versions. */
  retentionReleaseKeep?: number;
  /** RETENTION_RELEASE_COUNT_DAYS (default 14): the per-minute page views and errors of each release are kept this long. */
  retentionReleaseCountDays?: number;
  /**
   * Errors per release (release-errors/): a served release is failing while its error rate (server render errors and
   * fallbacks plus browser errors, per page view) is at least RELEASE_ERROR_RATE_PERCENT (default 2) over at least
   * RELEASE_ERROR_MIN_PAGE_VIEWS (default 20) page views in the last RELEASE_ERROR_WINDOW_MINUTES (default 15).
   * Browser errors count toward that rate (and a canary's) only once RELEASE_ERROR_MIN_REPORTERS (default 5) distinct
   * visitors (addresses, IPv6 per /64) reported them in the window; server render errors always count.
   * RELEASE_ERROR_COUNTING=off counts nothing (to measure what counting costs; health and alerts then see no errors).
   * Optional so configs built by hand (tests) need not name them.
   */
  releaseErrorRatePercent?: number;
  releaseErrorMinPageViews?: number;
  releaseErrorWindowMinutes?: number;
  releaseErrorMinReporters?: number;
  releaseErrorCounting?: boolean;
  /**
   * Canaries (deploys/canary-watch.ts): a canary is rolled back by itself when its error rate is at least
   * RELEASE_CANARY_MAX_RATE_PERCENT (default 2) and at least RELEASE_CANARY_RATIO (default 3) times the served release's,
   * over at least RELEASE_CANARY_MIN_VIEWS (default 50) of its page views; checked every RELEASE_CANARY_CHECK_MS (10000).
   * Optional so configs built by hand (tests) need not name them.
   */
  releaseCanaryMaxRatePercent?: number;
  releaseCanaryRatio?: number;
  releaseCanaryMinViews?: number;
  releaseCanaryCheckMs?: number;
  /**
   * PREVIEW_SECRET: signs the preview links of staged releases (HMAC-SHA256; issue 34). Unset: a random secret of the
   * process, so links work on this instance until it restarts. Optional so configs built by hand (tests) need not name it.
   */
  previewSecret?: string;
  /**
   * DEV_OVERRIDE_HOURS (default 8): how long a development override link and the cookie it sets last (issue 52).
   * Optional so configs built by hand (tests) need not name it.
   */
  devOverrideHours?: number;
  /**
   * METRICS_TOKEN: turns on `GET /metrics` (Prometheus), answered only with `Authorization: Bearer <token>`. Unset: no
   * metrics are kept and /metrics is an unknown path. Optional so configs built by hand (tests) need not name it.
   */
  metricsToken?: string;
  /** OTEL_EXPORTER_OTLP_ENDPOINT: turns on OpenTelemetry tracing, spans sent as OTLP/HTTP to `<endpoint>/v1/traces`. */
  otelEndpoint?: string;
  /** OTEL_SERVICE_NAME (default `site-api`): the service the spans are filed under. */
  otelServiceName?: string;
}

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid environment:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

/**
 * Two levels up from this module is the repository root both from source (api/src/config.ts)
 * and from the bundle (api/dist/server.js), which inlines this module.
 */
const defaultSiteRoot = () => fileURLToPath(new URL('../..', import.meta.url));

const optionalString = z.string().optional();
const httpUrl = z
  .url({ protocol: /^https?$/, message: 'Must be an http(s) URL' })
  .optional();

const BYTE_UNITS: Record<string, number> = { b: 1, kb: 1024, mb: 1024 ** 2, gb: 1024 ** 3 };

const DURATION_UNITS: Record<string, number> = { ms: 1, s: 1000, m: 60_000 };

/** Parses durations like `20s`, `500ms`, `1m` or `1500` (milliseconds). */
export function parseDuration(value: string): number | null {
  const m = /^(\d+(?:\.\d+)?)\s*(ms|s|m)?$/i.exec(value.trim());
  if (!m) return null;
  return Math.round(Number(m[1]) * DURATION_UNITS[(m[2] ?? 'ms').toLowerCase()]!);
}

const duration = (fallback: string) =>
  z
    .string()
    .refine((v) => (parseDuration(v) ?? 0) > 0, { message: 'Must be a duration such as 20s, 500ms or 1m' })
    .default(fallback);

/** Parses sizes like `100kb`, `1.5mb` or `2048` (bytes). */
export function parseByteSize(value: string): number | null {
  const m = /^(\d+(?:\.\d+)?)\s*(b|kb|mb|gb)?$/i.exec(value.trim());
  if (!m) return null;
  return Math.floor(Number(m[1]) * BYTE_UNITS[(m[2] ?? 'b').toLowerCase()]!);
}

const remoteUrlKeys = Object.fromEntries(
  REMOTE_NAMES.map((name) => [`REMOTE_${name.toUpperCase()}_URL`, httpUrl]),
) as Record<`REMOTE_${Uppercase<RemoteName>}_URL`, typeof httpUrl>;

/** APP_ROUTES_<APP>: comma-separated ownership patterns, each well formed and none of the server's paths. */
const appRoutes = z
  .string()
  .optional()
  .transform((value, ctx) => {
    if (value === undefined) return undefined;
    const patterns = value.split(',').map((p) => p.trim()).filter(Boolean);
    const server = ownershipTable({});
    for (const pattern of patterns) {
      if (!OWNERSHIP_PATTERN.test(pattern)) ctx.addIssue({ code: 'custom', message: `"${pattern}" is not an ownership pattern (/path, /path/* or /path*)` });
      else if (ownerOfPath(server, pattern.replace(/\/?\*$/, '')) === 'server') ctx.addIssue({ code: 'custom', message: `"${pattern}" is the server's (its API, files, feed or sitemaps)` });
    }
    return patterns;
  });
const appRoutesKeys = Object.fromEntries(REMOTE_NAMES.map((name) => [`APP_ROUTES_${name.toUpperCase()}`, appRoutes])) as Record<`APP_ROUTES_${Uppercase<RemoteName>}`, typeof appRoutes>;
const appRoutesOf = (e: Record<`APP_ROUTES_${Uppercase<RemoteName>}`, string[] | undefined>): Partial<Record<RemoteName, string[]>> =>
  Object.fromEntries(REMOTE_NAMES.flatMap((name) => { const routes = e[`APP_ROUTES_${name.toUpperCase() as Uppercase<RemoteName>}`]; return routes ? [[name, routes]] : []; }));

/** What a release may declare (APP_ROUTES_*, RELEASE_MAX_*): the server's, and all `npm run deploy` reads, so both judge a release alike. */
const releasePolicyKeys = {
  ...appRoutesKeys,
  RELEASE_MAX_ROUTES: z.coerce.number({ message: 'Must be a number' }).int().min(1, { message: 'Must be at least 1' }).max(100_000).default(DEFAULT_RELEASE_LIMITS.maxRoutes),
  RELEASE_MAX_PAGES: z.coerce.number({ message: 'Must be a number' }).int().min(0, { message: 'Must be 0 or more' }).max(100_000).default(DEFAULT_RELEASE_LIMITS.maxPages),
  RELEASE_MAX_MANIFEST_KB: z.coerce.number({ message: 'Must be a number' }).int().min(1, { message: 'Must be at least 1' }).max(64 * 1024).default(DEFAULT_RELEASE_LIMITS.maxManifestBytes / 1024),
};
type ReleasePolicyEnv = z.output<z.ZodObject<typeof releasePolicyKeys>>;
const appRoutesDistinct = (e: ReleasePolicyEnv) => { const all = Object.values({ ...DEFAULT_APP_ROUTES, ...appRoutesOf(e) }).flat(); return new Set(all).size === all.length; };
const APP_ROUTES_DISTINCT = { path: ['APP_ROUTES'], message: 'Two APP_ROUTES_<APP> name the same pattern: each path has one owner' };
const policyOf = (e: ReleasePolicyEnv): ReleasePolicy =>
  releasePolicy(appRoutesOf(e), { maxRoutes: e.RELEASE_MAX_ROUTES, maxPages: e.RELEASE_MAX_PAGES, maxManifestBytes: e.RELEASE_MAX_MANIFEST_KB * 1024 });

const envSchema = z.object({
  PORT: z.coerce.number({ message: 'Must be a number' }).int().min(0).max(65535).default(3000),
  HOST: z.string().min(1).default('0.0.0.0'),
  DATA_DIR: z.string().min(1).default('./data'),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, { message: 'Must be a postgres:// or postgresql:// URL' })
    .optional(),
  REDIS_URL: z
    .string()
    .regex(/^rediss?:\/\//, { message: 'Must be a redis:// or rediss:// URL' })
    .optional(),
  REDIS_KEY_PREFIX: z
    .string()
    .regex(/^[\w.:-]{1,64}$/, { message: 'Must be 1-64 letters, digits or . _ : -' })
    .optional(),
  PUBLIC_ORIGIN: httpUrl,
  ADMIN_PASSWORD: optionalString,
  ADMIN_PASSWORD_HASH: optionalString,
  WEBHOOK_SECRET: optionalString,
  WEBHOOK_ALLOW_PRIVATE_TARGETS: z
    .enum(['true', 'false', '1', '0'], { message: 'Must be true or false' })
    .optional()
    .transform((v) => v === 'true' || v === '1'),
  SMTP_URL: optionalString,
  GOOGLE_PLACES_API_KEY: optionalString,
  YELP_API_KEY: optionalString,
  ...remoteUrlKeys,
  LOG_LEVEL: z.enum(LOG_LEVELS).default('info'),
  SITE_ROOT: z.string().min(1).optional(),
  BODY_LIMIT: z
    .string()
    .refine((v) => parseByteSize(v) !== null, { message: 'Must be a size such as 100kb or 1mb' })
    .default('100kb'),
  DISK_MIN_FREE: z
    .string()
    .refine((v) => parseByteSize(v) !== null, { message: 'Must be a size such as 50mb or 1gb' })
    .default('50mb'),
  RATE_LIMIT_MULTIPLIER: z.coerce.number({ message: 'Must be a number' }).positive({ message: 'Must be a positive number' }).default(1),
  CONTACT_EMAIL_TO: z.email({ message: 'Must be an email address' }).default('hello@trivalleyai.com'),
  MAIL_FROM: z.string().min(3).default('Tri-Valley AI website <no-reply@trivalleyai.com>'),
  TRUST_PROXY: z
    .enum(['true', 'false', '1', '0'], { message: 'Must be true or false' })
    .optional()
    .transform((v) => v === 'true' || v === '1'),
  TRUST_PROXY_HOPS: z.coerce.number({ message: 'Must be a number' }).int().min(1, { message: 'Must be at least 1' }).max(10).default(1),
  HEADERS_TIMEOUT: duration('20s'),
  REQUEST_TIMEOUT: duration('30s'),
  BODY_IDLE_TIMEOUT: duration('15s'),
  ANALYSIS_TEST_ONLY_ALLOW_LOOPBACK: z
    .enum(['true', 'false', '1', '0'], { message: 'Must be true or false' })
    .optional()
    .transform((v) => v === 'true' || v === '1'),
  SSR_TIMEOUT_MS: z.coerce.number({ message: 'Must be a number' }).int().min(1, { message: 'Must be at least 1' }).max(10_000).default(150),
  SSR_CONCURRENCY: z.coerce.number({ message: 'Must be a number' }).int().min(1, { message: 'Must be at least 1' }).max(64).default(4),
  SSR_QUEUE_MS: z.coerce.number({ message: 'Must be a number' }).int().min(0, { message: 'Must be 0 or more' }).max(60_000).default(2_000),
  RENDER_CACHE_MB: z.coerce.number({ message: 'Must be a number' }).min(0, { message: 'Must be 0 or more' }).max(4096).default(64),
  DB_STATEMENT_TIMEOUT_MS: z.coerce.number({ message: 'Must be a number' }).int().min(0, { message: 'Must be 0 or more' }).max(3_600_000).default(5_000),
  DB_ACQUIRE_TIMEOUT_MS: z.coerce.number({ message: 'Must be a number' }).int().min(100, { message: 'Must be at least 100' }).max(600_000).default(5_000),
  READY_DB_GRACE_MS: z.coerce.number({ message: 'Must be a number' }).int().min(0, { message: 'Must be 0 or more' }).max(3_600_000).default(30_000),
  MEDIA_JOBS: z.coerce.number({ message: 'Must be a number' }).int().min(1, { message: 'Must be at least 1' }).max(64).default(1),
  CONTACT_MAIL_RATE: z.coerce.number({ message: 'Must be a number' }).min(0.1, { message: 'Must be at least 0.1' }).max(1000).default(5),
  MEDIA_QUEUE: z.coerce.number({ message: 'Must be a number' }).int().min(0, { message: 'Must be 0 or more' }).max(1000).default(8),
  MEDIA_THREADS: z.coerce.number({ message: 'Must be a number' }).int().min(1, { message: 'Must be at least 1' }).max(64).default(1),
  MEDIA_CACHE_MB: z.coerce.number({ message: 'Must be a number' }).int().min(0, { message: 'Must be 0 or more' }).max(4096).default(0),
  MEDIA_MAX_MB: z.coerce.number({ message: 'Must be a number' }).int().min(128, { message: 'Must be at least 128' }).max(65536).default(1024),
  SITEMAP_URLS_PER_FILE: z.coerce
    .number({ message: 'Must be a number' })
    .int()
    .min(2, { message: 'Must be at least 2' })
    .max(50_000, { message: 'Must be at most 50000 (the sitemap protocol allows no more per file)' })
    .default(10_000),
  RETENTION_DELIVERY_DAYS: z.coerce.number({ message: 'Must be a number' }).int().min(1, { message: 'Must be at least 1' }).max(3650).default(30),
  RETENTION_EVENT_DAYS: z.coerce.number({ message: 'Must be a number' }).int().min(1, { message: 'Must be at least 1' }).max(3650).default(90),
  RETENTION_ANALYSIS_DAYS: z.coerce.number({ message: 'Must be a number' }).int().min(1, { message: 'Must be at least 1' }).max(3650).default(365),
  RETENTION_RELEASE_DAYS: z.coerce.number({ message: 'Must be a number' }).int().min(1, { message: 'Must be at least 1' }).max(3650).default(30),
  RETENTION_RELEASE_KEEP: z.coerce.number({ message: 'Must be a number' }).int().min(1, { message: 'Must be at least 1' }).max(1000).default(10),
  RETENTION_RELEASE_COUNT_DAYS: z.coerce.number({ message: 'Must be a number' }).int().min(1, { message: 'Must be at least 1' }).max(3650).default(14),
  RELEASE_ERROR_RATE_PERCENT: z.coerce.number({ message: 'Must be a number' }).gt(0, { message: 'Must be more than 0' }).max(100).default(2),
  RELEASE_ERROR_MIN_PAGE_VIEWS: z.coerce.number({ message: 'Must be a number' }).int().min(1, { message: 'Must be at least 1' }).max(1_000_000).default(20),
  RELEASE_ERROR_WINDOW_MINUTES: z.coerce.number({ message: 'Must be a number' }).int().min(1, { message: 'Must be at least 1' }).max(1440).default(15),
  RELEASE_ERROR_MIN_REPORTERS: z.coerce.number({ message: 'Must be a number' }).int().min(1, { message: 'Must be at least 1' }).max(10_000).default(5),
  RELEASE_ERROR_COUNTING: z.enum(['on', 'off'], { message: 'Must be on or off' }).default('on'),
  RELEASE_CANARY_MAX_RATE_PERCENT: z.coerce.number({ message: 'Must be a number' }).gt(0, { message: 'Must be more than 0' }).max(100).default(2),
  RELEASE_CANARY_RATIO: z.coerce.number({ message: 'Must be a number' }).min(1, { message: 'Must be at least 1' }).max(1000).default(3),
  RELEASE_CANARY_MIN_VIEWS: z.coerce.number({ message: 'Must be a number' }).int().min(1, { message: 'Must be at least 1' }).max(1_000_000).default(50),
  RELEASE_CANARY_CHECK_MS: z.coerce.number({ message: 'Must be a number' }).int().min(1000, { message: 'Must be at least 1000' }).max(600_000).default(10_000),
  RELEASE_SMOKE_RENDER_TIMEOUT_MS: z.coerce.number({ message: 'Must be a number' }).int().min(100, { message: 'Must be at least 100' }).max(20_000).default(10_000),
  RELEASE_IMPORT_BUILDS: z.enum(['first', 'changed', 'off'], { message: 'Must be first, changed or off' }).default('first'),
  RELEASE_POLL_MS: z.coerce.number({ message: 'Must be a number' }).int().min(100, { message: 'Must be at least 100' }).max(3_600_000).default(5_000),
  ...releasePolicyKeys,
  RELEASE_TRUSTED_KEYS: z
    .string()
    .optional()
    .transform((value, ctx) => {
      try {
        return parseTrustedKeys(value);
      } catch (error) {
        ctx.addIssue({ code: 'custom', message: error instanceof Error ? error.message : String(error) });
        return z.NEVER;
      }
    }),
  DEV_OVERRIDE_HOURS: z.coerce.number({ message: 'Must be a number' }).positive({ message: 'Must be a positive number' }).max(24 * 30, { message: 'Must be at most 720 (30 days)' }).default(8),
  PREVIEW_SECRET: z
    .string()
    .min(32, { message: 'Must be at least 32 characters (e.g. openssl rand -hex 32)' })
    .max(512)
    .optional(),
  METRICS_TOKEN: z
    .string()
    .min(16, { message: 'Must be at least 16 characters (e.g. openssl rand -hex 32)' })
    .max(512)
    .refine((v) => !/\s/.test(v), { message: 'Must not contain spaces' })
    .optional(),
  OTEL_EXPORTER_OTLP_ENDPOINT: httpUrl,
  OTEL_SERVICE_NAME: z.string().min(1).max(200).default('site-api'),
  NODE_ENV: z.string().optional(),
}).refine((e) => !(e.ANALYSIS_TEST_ONLY_ALLOW_LOOPBACK && e.NODE_ENV === 'production'), {
  path: ['ANALYSIS_TEST_ONLY_ALLOW_LOOPBACK'],
  message: 'Is for tests only and cannot be set with NODE_ENV=production',
}).refine(appRoutesDistinct, APP_ROUTES_DISTINCT).refine((e) => parseDuration(e.HEADERS_TIMEOUT)! <= parseDuration(e.REQUEST_TIMEOUT)!, {
  path: ['HEADERS_TIMEOUT'],
  message: 'Must not be longer than REQUEST_TIMEOUT',
});

/** `env` parsed by `schema`, empty strings counting as unset; one `ConfigError` listing every invalid variable. */
function parseEnvironment<T>(schema: z.ZodType<T>, env: NodeJS.ProcessEnv): T {
  const cleaned = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v.trim() !== ''));
  const parsed = schema.safeParse(cleaned);
  if (!parsed.success) throw new ConfigError(parsed.error.issues.map((issue) => `${issue.path.map(String).join('.') || '(environment)'}: ${issue.message}`));
  return parsed.data;
}

/**
 * The release policy alone (APP_ROUTES_*, RELEASE_MAX_*), read from `env` exactly as `loadConfig` reads it: what
 * `npm run deploy`, `rollback` and `promote` check a release against on the serving machine, as the server does.
 */
export function loadReleasePolicy(env: NodeJS.ProcessEnv = process.env): ReleasePolicy {
  return policyOf(parseEnvironment(z.object(releasePolicyKeys).refine(appRoutesDistinct, APP_ROUTES_DISTINCT), env));
}

/**
 * Parses the environment. Throws one `ConfigError` listing every invalid variable.
 * Empty strings count as unset, so `DATABASE_URL=` means SQLite.
 */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const e = parseEnvironment(envSchema, env);
  const remoteUrls: Partial<Record<RemoteName, string>> = {};
  for (const name of REMOTE_NAMES) {
    const url = e[`REMOTE_${name.toUpperCase() as Uppercase<RemoteName>}_URL`];
    if (url) remoteUrls[name] = url;
  }
  return {
    port: e.PORT,
    host: e.HOST,
    dataDir: path.resolve(process.cwd(), e.DATA_DIR),
    databaseUrl: e.DATABASE_URL,
    redisUrl: e.REDIS_URL,
    redisKeyPrefix: e.REDIS_KEY_PREFIX,
    publicOrigin: (e.PUBLIC_ORIGIN ?? `http://localhost:${e.PORT}`).replace(/(?<!\/)\/+$/, ''),
    adminPassword: e.ADMIN_PASSWORD,
    adminPasswordHash: e.ADMIN_PASSWORD_HASH,
    webhookSecret: e.WEBHOOK_SECRET,
    webhookAllowPrivateTargets: e.WEBHOOK_ALLOW_PRIVATE_TARGETS,
    smtpUrl: e.SMTP_URL,
    googlePlacesApiKey: e.GOOGLE_PLACES_API_KEY,
    yelpApiKey: e.YELP_API_KEY,
    remoteUrls,
    logLevel: e.LOG_LEVEL,
    siteRoot: path.resolve(process.cwd(), e.SITE_ROOT ?? defaultSiteRoot()),
    bodyLimit: parseByteSize(e.BODY_LIMIT)!,
    diskMinFreeBytes: parseByteSize(e.DISK_MIN_FREE)!,
    trustProxy: e.TRUST_PROXY,
    trustProxyHops: e.TRUST_PROXY_HOPS,
    headersTimeoutMs: parseDuration(e.HEADERS_TIMEOUT)!,
    requestTimeoutMs: parseDuration(e.REQUEST_TIMEOUT)!,
    bodyIdleTimeoutMs: parseDuration(e.BODY_IDLE_TIMEOUT)!,
    rateLimitMultiplier: e.RATE_LIMIT_MULTIPLIER,
    contactEmailTo: e.CONTACT_EMAIL_TO,
    mailFrom: e.MAIL_FROM,
    analysisTestOnlyAllowLoopback: e.ANALYSIS_TEST_ONLY_ALLOW_LOOPBACK,
    ssrTimeoutMs: e.SSR_TIMEOUT_MS,
    ssrConcurrency: e.SSR_CONCURRENCY,
    ssrQueueMs: e.SSR_QUEUE_MS,
    releasePollMs: e.RELEASE_POLL_MS,
    releaseImportBuilds: e.RELEASE_IMPORT_BUILDS,
    releaseSmokeRenderTimeoutMs: e.RELEASE_SMOKE_RENDER_TIMEOUT_MS,
    releaseTrustedKeys: e.RELEASE_TRUSTED_KEYS,
    releasePolicy: policyOf(e),
    renderCacheBytes: Math.round(e.RENDER_CACHE_MB * 1024 * 1024),
    dbStatementTimeoutMs: e.DB_STATEMENT_TIMEOUT_MS,
    dbAcquireTimeoutMs: e.DB_ACQUIRE_TIMEOUT_MS,
    readyDbGraceMs: e.READY_DB_GRACE_MS,
    mediaJobs: e.MEDIA_JOBS,
    contactMailRate: e.CONTACT_MAIL_RATE,
    mediaQueue: e.MEDIA_QUEUE,
    mediaThreads: e.MEDIA_THREADS,
    mediaMaxMb: e.MEDIA_MAX_MB,
    mediaCacheMb: e.MEDIA_CACHE_MB,
    sitemapUrlsPerFile: e.SITEMAP_URLS_PER_FILE,
    retentionDeliveryDays: e.RETENTION_DELIVERY_DAYS,
    retentionEventDays: e.RETENTION_EVENT_DAYS,
    retentionAnalysisDays: e.RETENTION_ANALYSIS_DAYS,
    retentionReleaseDays: e.RETENTION_RELEASE_DAYS,
    retentionReleaseKeep: e.RETENTION_RELEASE_KEEP,
    retentionReleaseCountDays: e.RETENTION_RELEASE_COUNT_DAYS,
    releaseErrorRatePercent: e.RELEASE_ERROR_RATE_PERCENT,
    releaseErrorMinPageViews: e.RELEASE_ERROR_MIN_PAGE_VIEWS,
    releaseErrorWindowMinutes: e.RELEASE_ERROR_WINDOW_MINUTES,
    releaseErrorMinReporters: e.RELEASE_ERROR_MIN_REPORTERS,
    releaseErrorCounting: e.RELEASE_ERROR_COUNTING === 'on',
    releaseCanaryMaxRatePercent: e.RELEASE_CANARY_MAX_RATE_PERCENT,
    releaseCanaryRatio: e.RELEASE_CANARY_RATIO,
    releaseCanaryMinViews: e.RELEASE_CANARY_MIN_VIEWS,
    releaseCanaryCheckMs: e.RELEASE_CANARY_CHECK_MS,
    metricsToken: e.METRICS_TOKEN,
    previewSecret: e.PREVIEW_SECRET,
    devOverrideHours: e.DEV_OVERRIDE_HOURS,
    otelEndpoint: e.OTEL_EXPORTER_OTLP_ENDPOINT,
    otelServiceName: e.OTEL_SERVICE_NAME,
  };
}
