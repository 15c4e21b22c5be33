import { EventEmitter } from 'node:events';
import type { AppName } from '@site/contracts/deploys';
import type { RemoteName } from '@site/contracts/manifest';
import type { Config } from './config';
import { createOutboxStatsRepository } from './admin/outbox-stats-repository';
import { createCanaryWatch } from './deploys/canary-watch';
import { openDatabase, type DatabaseHandle, type OpenDatabaseOptions } from './db/database';
import { createLeasesRepository } from './db/leases-repository';
import type { DeployedRemotes } from './health/deployed-remotes';
import { systemClock, type Clock } from './lib/clock';
import { createJobRunner, type JobResult, type JobRunner } from './lib/job-runner';
import { createLogger, type Logger } from './lib/logger';
import { createMetrics, type AppMetrics } from './lib/metrics';
import type { RateLimitStore } from './lib/rate-limit-counter';
import { closeRedis, connectRedis } from './lib/redis';
import { startTracing } from './lib/tracing';
import type { Resolver } from './outgoing-webhooks/webhook-targets';
import { createAlerting, createServices, type AnalysisEngineOverrides, type Alerting, type DomainServices, type Services } from './services';
import { createPageComposer, type PageComposer } from './site/render/compose-page';
import { createContentEvents, type ContentEvents } from './site/render/content-events';
import { createRenderCache, type RenderCache } from './site/render/render-cache';
import { createRenderQueue, type RenderQueue } from './site/render/render-queue';
import { createRouteDataLoaders, type RouteDataLoaders } from './site/render/route-data';
import { createShellDocument, type ShellDocument } from './site/render/shell-document';
import { createShellServer, type ShellServer } from './site/render/shell-server';
import { createSmokeRenderData } from './site/render/smoke-render-data';
import { createDevOverrideTokens, DEV_OVERRIDE_PARAM, type DevOverrideTokens } from './site/releases/dev-override-tokens';
import { createPreviewTokens, PREVIEW_PARAM, type PreviewTokens } from './site/releases/preview-tokens';
import { createCanaryCache, createReleaseChooser, type CanaryCache, type ChooseReleases } from './site/releases/release-choice';
import { createReleaseDeployer } from './site/releases/release-deployer';
import { currentShell, releasePolicy, trustShellKeys, useReleasePolicy } from './site/releases/release-format';
import { copyStoredRelease, createReleaseSync, type ReleaseSync } from './site/releases/release-sync';
import { createRemoteRegistry, type RemoteRegistry } from './site/releases/remote-registry';
import { createSmokeRenderer } from './site/releases/smoke-render';
import { createVisitorTokens, loadVisitorTokenKey, type VisitorTokens } from './site/releases/visitor-tokens';

/*
 * The one composition root: everything the app uses is built here, in dependency order, in four layers —
 * infrastructure (tracing, Redis, the database, the job runner, the render cache), the site (the shell, the release
 * registry and its sync, canaries, signed tokens), the services (alerts first, then metrics, the domain services, the
 * deployer and the canary watch) and last the jobs' start. createApp (app.ts) composes Koa from what this returns;
 * close() undoes it in reverse order.
 */

export interface AppDeps {
  /** Defaults to a pino logger at `config.logLevel` on stdout. */
  logger?: Logger;
  /** Defaults to the system clock. */
  clock?: Clock;
  /**
   * The analysis engine's outside world: provider endpoints and timeouts, and the website fetcher's options (which
   * addresses it may read). Defaults: the real providers with config's keys, the public internet on ports 80/443.
   */
  analysis?: AnalysisEngineOverrides;
  /** Database options, e.g. a PostgreSQL schema of its own for a test run. */
  database?: Omit<OpenDatabaseOptions, 'logger'>;
  /**
   * Run the admin health checks every minute (and once at start) until close(). server.ts turns it on; tests leave
   * it off and call the refresh endpoint, or pass an interval.
   */
  adminMonitor?: boolean | { intervalMs: number };
  /** How often this instance looks for due scheduled posts (posts/post-scheduler.ts); 5 s by default. */
  schedulerPollMs?: number;
  /** How often this instance looks for due outgoing webhook deliveries (outgoing-webhooks/outgoing-webhooks-service.ts); 5 s by default. */
  webhookPollMs?: number;
  /** Resolves outgoing webhook host names (the system's DNS by default): tests give names addresses without real DNS. */
  webhookResolver?: Resolver;
}

/** Undoes what one step opened; run in reverse order of opening. */
type Closer = () => Promise<void> | void;

interface Infrastructure {
  logger: Logger;
  clock: Clock;
  tracing: { flush(): Promise<void>; stop(): Promise<void> } | undefined;
  database: DatabaseHandle;
  rateLimits: RateLimitStore;
  jobs: JobRunner;
  /** Each job run as it ends (kind, result, seconds): the runner is built before the metrics that count the runs. */
  jobRuns: EventEmitter<{ run: [kind: string, result: JobResult, seconds: number] }>;
  renderCache: RenderCache;
  renderQueue: RenderQueue;
  contentEvents: ContentEvents;
}

async function openInfrastructure(config: Config, deps: AppDeps, opened: Closer[]): Promise<Infrastructure> {
  const logger = deps.logger ?? createLogger({ level: config.logLevel });
  const clock = deps.clock ?? systemClock;
  // OTEL_EXPORTER_OTLP_ENDPOINT: the SDK is loaded and installed now, before the database, whose queries it traces.
  const tracing = config.otelEndpoint ? await startTracing({ endpoint: config.otelEndpoint, serviceName: config.otelServiceName ?? 'site-api', logger }) : undefined;
  if (tracing) opened.push(() => tracing.stop());
  // REDIS_URL: rate limits (and the admin login lockout) counted once for every instance behind the load balancer.
  const redis = config.redisUrl ? await connectRedis(config.redisUrl, logger, { keyPrefix: config.redisKeyPrefix }) : undefined;
  if (redis) opened.push(() => closeRedis(redis));
  const database = await openDatabase(config, { ...deps.database, logger, trace: Boolean(tracing) });
  opened.push(() => database.close());
  // The job runner and the metrics need each other (runs are counted, a scrape reads the runner's status): the runner
  // tells each run to this emitter, made before both, and the metrics listen once built.
  const jobRuns: Infrastructure['jobRuns'] = new EventEmitter();
  // The one background-work runner (lib/job-runner.ts): the outboxes, scheduled publishing, release sync and the admin
  // monitor are its job kinds. Started once everything is built; stopped first on drain and close.
  const jobs = createJobRunner({
    clock,
    logger,
    leases: createLeasesRepository(database.db),
    observe: (kind, result, seconds) => jobRuns.emit('run', kind, result, seconds),
  });
  // Rendered public pages, kept until what they were made from changes (site/render/render-cache.ts); content changes
  // reach every instance's cache through PostgreSQL (site/render/content-events.ts).
  // On the app's clock, as everything else that ages (tests move it to see a kept page or document age out).
  const renderCache = createRenderCache({ maxBytes: config.renderCacheBytes, clock: () => clock().getTime() });
  const renderQueue = createRenderQueue({ concurrency: config.ssrConcurrency, maxWaitMs: config.ssrQueueMs });
  const contentEvents = createContentEvents({
    cache: renderCache,
    logger,
    ...(database.dialect === 'postgres' && config.databaseUrl ? { postgres: { db: database.db, databaseUrl: config.databaseUrl, schema: database.pgSchema } } : {}),
  });
  opened.push(() => contentEvents.close());
  return { logger, clock, tracing, database, rateLimits: { redis }, jobs, jobRuns, renderCache, renderQueue, contentEvents };
}

interface Site {
  shellServer: ShellServer;
  /** The serving shell, read once per page: its document and its server entry, from one release. */
  shell: ShellDocument;
  remotes: RemoteRegistry;
  /** What health and the release error counts read of the deployed remotes. */
  deployed: DeployedRemotes;
  releaseSync: ReleaseSync | undefined;
  canaryCache: CanaryCache;
  previews: PreviewTokens;
  visitorTokens: VisitorTokens;
  devOverrides: DevOverrideTokens;
  chooseReleases: ChooseReleases;
  /** Only signed releases are taken (RELEASE_TRUSTED_KEYS): development overrides from loopback only. */
  signingOn: boolean;
  /** A staged release's preview link: the app's first page of the served manifest (else the home page), with a token. */
  previewLink(app: AppName, version: string): Promise<string | undefined>;
  /** A development override's link: the app's first page, as a preview link's. */
  devOverrideLink(app: RemoteName, entryUrl: string): Promise<{ url: string; expiresAt: Date }>;
}

async function buildSite(config: Config, infra: Infrastructure, opened: Closer[]): Promise<Site> {
  const { logger, clock, database, jobs } = infra;
  // The shell's server entry renders every page's chrome and provides the remotes' server modules with its React and
  // router (its `shared`), as Module Federation provides the shell's copies in the browser.
  // With RELEASE_TRUSTED_KEYS, the shell too runs only when a key trusted for it signed its release (release-format.ts).
  trustShellKeys(config.siteRoot, config.releaseTrustedKeys ?? []);
  // Which paths each app owns and what a release may carry (issue 51): every check of a manifest reads it.
  useReleasePolicy(config.releasePolicy ?? releasePolicy());
  const shellServer = createShellServer({ siteRoot: config.siteRoot, logger });
  // On PostgreSQL, releases are shared by every instance: deploys land in the database and each instance copies the
  // pointer's release into its own SITE_ROOT, where the registry serves it (site/releases/release-sync.ts).
  const shared = database.dialect === 'postgres' && config.databaseUrl ? config.databaseUrl : undefined;
  const remotes = createRemoteRegistry({
    siteRoot: config.siteRoot,
    remoteUrls: config.remoteUrls,
    logger,
    shared: async () => (await shellServer.load())?.shared,
    trustedKeys: config.releaseTrustedKeys,
    // On PostgreSQL a staged release is in the store: this instance copies it when a preview first asks for it.
    ...(shared ? { stagedCopy: (name: RemoteName, version: string) => copyStoredRelease({ db: database.db, siteRoot: config.siteRoot, logger }, name, version, 'staged') } : {}),
  });
  // Preview links of staged releases (issue 34): signed with PREVIEW_SECRET (configuration, never the database).
  if (!config.previewSecret) logger.info('PREVIEW_SECRET is not set: preview links of staged releases work on this instance until it restarts');
  const previews = createPreviewTokens({ secret: config.previewSecret, clock });
  // Canaries (issue 34): rows of the database, kept in memory for the request path, read again when this instance
  // changes one and, on PostgreSQL, at every release sync (NOTIFY and poll). Read once before the first request.
  const canaryCache = createCanaryCache(database.db, logger);
  await canaryCache.refresh();
  // The bucket cookie and the page-view tokens are signed (issue 51): no client picks its canary side or counts its
  // own reports against a release. One key for every instance (PREVIEW_SECRET's, else the database's).
  const visitorTokens = createVisitorTokens({ key: await loadVisitorTokenKey(database.db, config.previewSecret), clock });
  // Development overrides (issue 52): one browser loads one remote from a developer's server; signed as previews are.
  // A site that takes only signed releases runs no override from off the developer's computer, even an older link's.
  const signingOn = (config.releaseTrustedKeys?.length ?? 0) > 0;
  const devOverrides = createDevOverrideTokens({ secret: config.previewSecret, clock, hours: config.devOverrideHours, loopbackOnly: signingOn });
  const chooseReleases = createReleaseChooser({ previews, canaries: () => canaryCache.running(), buckets: visitorTokens, devOverrides });
  const firstPage = async (app: RemoteName) => {
    const manifest = (await remotes.snapshot()).manifests.find((m) => m.name === app);
    return manifest?.routes.find((route) => !route.includes(':') && !route.includes('*')) ?? '/';
  };
  // Which shell release this instance serves, and since when (health, and each instance's report on PostgreSQL).
  let shellServed: { version: string | null; since: string } | undefined;
  const servedShell = async () => {
    const { dir, version } = await currentShell(config.siteRoot);
    if (!shellServed || shellServed.version !== version) shellServed = { version, since: clock().toISOString() };
    return { dir, version, since: shellServed.since };
  };
  const releaseSync = shared
    ? createReleaseSync({
        db: database.db,
        databaseUrl: shared,
        schema: database.pgSchema,
        siteRoot: config.siteRoot,
        remotes,
        shell: servedShell,
        logger,
        clock,
        pollMs: config.releasePollMs ?? 5000,
        jobs,
        canaries: canaryCache,
      })
    : undefined;
  if (releaseSync) opened.push(() => releaseSync.close());
  return {
    shellServer,
    shell: createShellDocument({ siteRoot: config.siteRoot, server: shellServer }),
    remotes,
    deployed: { snapshot: () => remotes.snapshot(), shell: servedShell, ...(releaseSync ? { shared: () => releaseSync.status() } : {}) },
    releaseSync,
    canaryCache,
    previews,
    visitorTokens,
    devOverrides,
    chooseReleases,
    signingOn,
    previewLink: async (app, version) => (app === 'shell' ? undefined : `${config.publicOrigin}${await firstPage(app)}?${PREVIEW_PARAM}=${previews.issue(app, version).token}`),
    devOverrideLink: async (app, entryUrl) => {
      const page = await firstPage(app);
      const { token, expiresAt } = devOverrides.issue(app, entryUrl);
      return { url: `${config.publicOrigin}${page}?${DEV_OVERRIDE_PARAM}=${token}`, expiresAt };
    },
  };
}

/** METRICS_TOKEN: GET /metrics (lib/metrics.ts). Without it nothing is counted: the default path pays nothing. */
function buildMetrics(config: Config, infra: Infrastructure, site: Site, alerting: Alerting): AppMetrics | undefined {
  if (!config.metricsToken) return undefined;
  const { database, renderCache, renderQueue, jobs, clock } = infra;
  const outboxStats = createOutboxStatsRepository(database.db);
  const metrics = createMetrics(
    {
      renderCache: config.renderCacheBytes ? () => renderCache.stats() : undefined,
      renderQueue: () => renderQueue.stats(),
      outboxes: () => outboxStats.outboxes(),
      dbPool: () => database.poolStats(),
      releases: async () => Object.values((await site.remotes.snapshot()).served ?? {}).map((s) => ({ remote: s.name, version: s.version })),
      now: () => clock().getTime(),
      jobs: () => jobs.status(),
      releaseErrors: () => alerting.releaseErrors,
    },
    { logger: infra.logger },
  );
  infra.jobRuns.on('run', (kind, result, seconds) => metrics.jobRun(kind, result, seconds));
  return metrics;
}

/** The domain services, then the deployer and the canary watch, which need them (and which they do not need). */
function buildServices(config: Config, deps: AppDeps, infra: Infrastructure, site: Site, alerting: Alerting, metrics: AppMetrics | undefined): Services {
  const { database, clock, logger, jobs, renderCache, contentEvents } = infra;
  const domain: DomainServices = createServices({
    db: database.db,
    clock,
    jobs,
    config,
    logger,
    ping: () => database.ping(),
    lastDatabaseAnswerAt: () => database.lastAnswerAt(),
    remotes: site.deployed,
    rateLimits: infra.rateLimits,
    analysis: deps.analysis,
    onContentChange: (tags) => contentEvents.changed(tags),
    schedulerPollMs: deps.schedulerPollMs,
    databaseDialect: database.dialect,
    webhookPollMs: deps.webhookPollMs,
    webhookResolver: deps.webhookResolver,
    renderCacheStats: () => renderCache.stats(),
    metrics,
    pageTokens: site.visitorTokens,
    alerting,
  });
  const { alerts } = alerting;
  // Deploys and rollbacks of the five apps, checked as the registry will serve them (site/releases/release-deployer.ts):
  // on PostgreSQL into the shared store, else into SITE_ROOT.
  const releases = createReleaseDeployer({
    siteRoot: config.siteRoot,
    ...(database.dialect === 'postgres' ? { shared: database.db } : {}),
    trustedKeys: config.releaseTrustedKeys ?? [],
    // A release's server module is checked with the serving shell's shared modules; a shell must strand no remote.
    sharedModules: async () => (await site.shellServer.load())?.shared,
    servedManifests: async () => (await site.remotes.snapshot()).manifests,
    // This instance copies a shared release at once (the others when PostgreSQL tells them), and reads the canaries
    // again before the caller is answered (its next request is split by the new canary).
    switched: async () => {
      void site.releaseSync?.sync();
      await site.canaryCache.refresh();
    },
    // Canaries are rows of the site's database (on PostgreSQL the shared store's transaction writes them).
    canaryDb: database.db,
    record: (entry) => domain.deployLog.record(entry),
    // Every page of an upload is rendered on a worker first, with the site's own data (site/releases/smoke-render.ts).
    smokeRender: createSmokeRenderer({
      deadlineMs: config.releaseSmokeRenderTimeoutMs,
      logger,
      data: () => createSmokeRenderData({ loaders: () => createRouteDataLoaders(domain), posts: domain.posts }),
    }),
    previewLink: site.previewLink,
    deployedBy: (app, versions) => domain.deployLog.deployedBy(app, versions),
    alert: ({ title, message, key }) => alerts.notify({ type: 'deployment', severity: 'high', title, message, key, cooldownMs: 0 }),
    logger,
    clock,
  });
  const canaries = createCanaryWatch({
    releaseErrors: alerting.releaseErrors,
    releases,
    alerts,
    clock,
    logger,
    jobs,
    checkMs: config.releaseCanaryCheckMs,
    rules: {
      ...(config.releaseCanaryMaxRatePercent !== undefined ? { maxRate: config.releaseCanaryMaxRatePercent / 100 } : {}),
      ...(config.releaseCanaryRatio !== undefined ? { ratio: config.releaseCanaryRatio } : {}),
      ...(config.releaseCanaryMinViews !== undefined ? { minPageViews: config.releaseCanaryMinViews } : {}),
    },
  });
  return { ...domain, releases, canaries };
}

/** Everything createApp composes Koa from. */
/** The first copy of the shared releases, waited for at most FIRST_SYNC_MS; the sync job carries on after it. */
const FIRST_SYNC_MS = 10_000;
async function firstSync(sync: ReleaseSync, logger: Logger): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<'late'>((resolve) => {
    timer = setTimeout(() => resolve('late'), FIRST_SYNC_MS);
    timer.unref();
  });
  try {
    const outcome = await Promise.race([sync.sync().then(() => 'done' as const), late]);
    if (outcome === 'late') logger.warn('the shared releases were not copied here within 10 s: serving what this folder holds until they are');
  } catch (error) {
    logger.warn({ err: error }, 'the shared releases could not be copied here at start: serving what this folder holds until they are');
  } finally {
    clearTimeout(timer);
  }
}

export interface Container extends Omit<Infrastructure, 'jobRuns' | 'renderQueue' | 'contentEvents'>, Omit<Site, 'shellServer' | 'deployed' | 'releaseSync' | 'canaryCache' | 'previewLink'> {
  services: Services;
  /** The Prometheus metrics (METRICS_TOKEN set); undefined without. */
  metrics: AppMetrics | undefined;
  /** Public pages rendered on the server: the shell's server entry around the matched remote's. */
  composer: PageComposer;
  /** A page's data, for its head (dynamic pages' head()) and its server render: our own services, never the remote. */
  routeDataLoaders: RouteDataLoaders;
  /** Closes what the container opened, in reverse order (the job runner first, tracing last). */
  close(): Promise<void>;
}

/** Builds everything, in dependency order, and starts the background jobs. On a failure, closes what was opened. */
export async function createContainer(config: Config, deps: AppDeps = {}): Promise<Container> {
  const opened: Closer[] = [];
  const close = async () => {
    for (const closer of opened.splice(0).reverse()) await closer();
  };
  try {
    const infra = await openInfrastructure(config, deps, opened);
    const site = await buildSite(config, infra, opened);
    const alerting = createAlerting({ ...infra, db: infra.database.db, config, remotes: site.deployed, runningCanaries: () => site.canaryCache.running() });
    const metrics = buildMetrics(config, infra, site, alerting);
    const services = buildServices(config, deps, infra, site, alerting, metrics);
    opened.push(async () => {
      await services.admin.close();
      services.contact.close();
    });
    // A build never changes what is served by itself: built remotes are imported as releases (the first start's, or a
    // changed build's under `npm start`), before the first request is served.
    const importBuilds = config.releaseImportBuilds ?? 'first';
    if (importBuilds !== 'off') await services.releases.importBuilds(importBuilds, importBuilds === 'first' ? 'first start (the built output)' : 'npm start (a new build)');
    // On PostgreSQL the shared store's releases are copied here before the first request, so a start never serves the
    // build in its folder for a moment; bounded, so a slow store delays the start by seconds, never stops it.
    if (site.releaseSync) await firstSync(site.releaseSync, infra.logger);
    const { jobs } = infra;
    if (deps.adminMonitor) jobs.add(services.admin.monitorJob(deps.adminMonitor === true ? undefined : deps.adminMonitor.intervalMs));
    // Every job kind runs now (work left by a previous process: mails and deliveries due, posts whose time passed while
    // no server ran), then on its poll and whenever a change kicks it.
    jobs.start();
    opened.push(() => jobs.stop());
    const composer = createPageComposer({
      shell: site.shellServer,
      publicOrigin: config.publicOrigin,
      timeoutMs: config.ssrTimeoutMs,
      queue: infra.renderQueue,
      logger: infra.logger,
      ...(metrics ? { observe: { queued: metrics.renderQueued, rendered: metrics.pageRendered } } : {}),
    });
    return { ...infra, ...site, services, metrics, composer, routeDataLoaders: createRouteDataLoaders(services), close };
  } catch (error) {
    await close().catch((closeError: unknown) => deps.logger?.warn({ err: closeError }, 'closing after a failed start failed'));
    throw error;
  }
}
