import { DEFAULT_APP_ROUTES } from '@site/contracts/route-ownership';
import { REMOTE_NAMES, type RemoteName } from '@site/contracts/manifest';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { parseByteSize, parseDuration, type LogLevel } from './config-parsers';
import { RELEASE_POLICY_SETTINGS, SETTINGS, shapeOf } from './config-schema';
import type { TrustedKey } from './site/releases/release-signature';
import { releasePolicy, type ReleasePolicy } from './site/releases/release-policy';

export { LOG_LEVELS, parseByteSize, parseDuration, type LogLevel } from './config-parsers';

/**
 * Typed, validated settings of one API process, built once by `loadConfig` from the environment variables of
 * SETTINGS (config-schema.ts), whose meanings and defaults docs/configuration.md lists. Optional fields may be left out
 * of configs built by hand (tests); `loadConfig` sets every one.
 */
export interface Config {
  port: number;
  host: string;
  /** Absolute. */
  dataDir: string;
  databaseUrl: string | undefined;
  redisUrl: string | undefined;
  redisKeyPrefix: string | undefined;
  /** Without a trailing slash. */
  publicOrigin: string;
  adminPassword: string | undefined;
  adminPasswordHash: string | undefined;
  webhookSecret: string | undefined;
  webhookAllowPrivateTargets?: boolean;
  smtpUrl: string | undefined;
  googlePlacesApiKey: string | undefined;
  yelpApiKey: string | undefined;
  /** `REMOTE_<NAME>_URL`: a remote entry served from elsewhere instead of `/mfe/<name>/`. */
  remoteUrls: Partial<Record<RemoteName, string>>;
  logLevel: LogLevel;
  /** Absolute directory holding `shell/dist` and `mfe-<name>/dist`. */
  siteRoot: string;
  /** Bytes. */
  bodyLimit: number;
  diskMinFreeBytes: number;
  trustProxy: boolean;
  trustProxyHops: number;
  headersTimeoutMs: number;
  requestTimeoutMs: number;
  bodyIdleTimeoutMs: number;
  rateLimitMultiplier: number;
  contactEmailTo: string;
  mailFrom: string;
  /** Read by the server process (server.ts) only; createApp never looks at it. */
  analysisTestOnlyAllowLoopback: boolean;
  ssrTimeoutMs?: number;
  ssrConcurrency?: number;
  ssrQueueMs?: number;
  releasePollMs?: number;
  releaseImportBuilds?: 'first' | 'changed' | 'off';
  releaseSmokeRenderTimeoutMs?: number;
  releaseTrustedKeys?: TrustedKey[];
  /** APP_ROUTES_<APP> and RELEASE_MAX_*, checked at upload and again at load. */
  releasePolicy?: ReleasePolicy;
  /** Bytes (RENDER_CACHE_MB); 0 turns the cache off. */
  renderCacheBytes?: number;
  dbStatementTimeoutMs?: number;
  dbAcquireTimeoutMs?: number;
  readyDbGraceMs?: number;
  mediaJobs?: number;
  mediaQueue?: number;
  contactMailRate?: number;
  mediaThreads?: number;
  mediaCacheMb?: number;
  mediaMaxMb?: number;
  sitemapUrlsPerFile?: number;
  retentionDeliveryDays?: number;
  retentionEventDays?: number;
  retentionAnalysisDays?: number;
  retentionReleaseDays?: number;
  retentionReleaseKeep?: number;
  retentionReleaseCountDays?: number;
  releaseErrorRatePercent?: number;
  releaseErrorMinPageViews?: number;
  releaseErrorWindowMinutes?: number;
  releaseErrorMinReporters?: number;
  releaseErrorCounting?: boolean;
  releaseCanaryMaxRatePercent?: number;
  releaseCanaryRatio?: number;
  releaseCanaryMinViews?: number;
  releaseCanaryCheckMs?: number;
  previewSecret?: string;
  devOverrideHours?: number;
  metricsToken?: string;
  otelEndpoint?: string;
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

const appRoutesOf = (e: Record<`APP_ROUTES_${Uppercase<RemoteName>}`, string[] | undefined>): Partial<Record<RemoteName, string[]>> =>
  Object.fromEntries(REMOTE_NAMES.flatMap((name) => { const routes = e[`APP_ROUTES_${name.toUpperCase() as Uppercase<RemoteName>}`]; return routes ? [[name, routes]] : []; }));

const releasePolicyShape = shapeOf(RELEASE_POLICY_SETTINGS);
type ReleasePolicyEnv = z.output<z.ZodObject<typeof releasePolicyShape>>;
const appRoutesDistinct = (e: ReleasePolicyEnv) => { const all = Object.values({ ...DEFAULT_APP_ROUTES, ...appRoutesOf(e) }).flat(); return new Set(all).size === all.length; };
const APP_ROUTES_DISTINCT = { path: ['APP_ROUTES'], message: 'Two APP_ROUTES_<APP> name the same pattern: each path has one owner' };
const policyOf = (e: ReleasePolicyEnv): ReleasePolicy =>
  releasePolicy(appRoutesOf(e), { maxRoutes: e.RELEASE_MAX_ROUTES, maxPages: e.RELEASE_MAX_PAGES, maxManifestBytes: e.RELEASE_MAX_MANIFEST_KB * 1024 });

const envSchema = z.object(shapeOf(SETTINGS)).refine((e) => !(e.ANALYSIS_TEST_ONLY_ALLOW_LOOPBACK && e.NODE_ENV === 'production'), {
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
  return policyOf(parseEnvironment(z.object(releasePolicyShape).refine(appRoutesDistinct, APP_ROUTES_DISTINCT), env));
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
