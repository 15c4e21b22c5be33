import Router from '@koa/router';
import Koa from 'koa';
import type { Kysely } from 'kysely';
import type { Config } from './config';
import { openDatabase, type DatabaseHandle, type OpenDatabaseOptions } from './db/database';
import type { Database } from './db/schema';
import { systemClock, type Clock } from './lib/clock';
import { createLogger, type Logger } from './lib/logger';
import type { RateLimitStore } from './lib/rate-limit-counter';
import { closeRedis, connectRedis } from './lib/redis';
import { apiFallback } from './middleware/api-fallback';
import { compress } from './middleware/compress';
import { errors } from './middleware/errors';
import { etags } from './middleware/etag';
import { requestBodyLimits } from './middleware/json-body';
import { observeRequests } from './middleware/observe-requests';
import { requestLog } from './middleware/request-log';
import { requestId } from './middleware/request-id';
import { httpMetrics, metricsEndpoint } from './middleware/http-metrics';
import { traceRequests } from './middleware/trace-request';
import { createMetrics, type AppMetrics } from './lib/metrics';
import { startTracing } from './lib/tracing';
import { createOutboxStatsRepository } from './admin/outbox-stats-repository';
import { securityHeaders } from './middleware/security-headers';
import { API_ENDPOINTS, API_ROUTES } from './http/api-routes';
import { contactFailureAnswer } from './contact/contact-routes';
import { largeBodyLimits } from './http/endpoint';
import type { ApiRouter, RouteContext } from './http/route-module';
import type { DeployedRemotes } from './health/deployed-remotes';
import { createServices, type AnalysisEngineOverrides, type Services } from './services';
import type { Resolver } from './outgoing-webhooks/webhook-targets';
import { createRenderQueue } from './site/render/render-queue';
import { createPageComposer } from './site/render/compose-page';
import { createRouteDataLoaders } from './site/render/route-data';
import { createContentEvents } from './site/render/content-events';
import { createReleaseDeployer } from './site/releases/release-deployer';
import { createSmokeRenderer } from './site/releases/smoke-render';
import { createSmokeRenderData } from './site/render/smoke-render-data';
import { currentShell, releasePolicy, trustShellKeys, useReleasePolicy } from './site/releases/release-format';
import { createReleaseSync } from './site/releases/release-sync';
import { createJobRunner, type JobRunner } from './lib/job-runner';
import { createLeasesRepository } from './db/leases-repository';
import { createRenderCache } from './site/render/render-cache';
import { createRemoteRegistry } from './site/releases/remote-registry';
import { createPreviewTokens, PREVIEW_PARAM } from './site/releases/preview-tokens';
import { createDevOverrideTokens, DEV_OVERRIDE_PARAM } from './site/releases/dev-override-tokens';
import { createVisitorTokens, loadVisitorTokenKey } from './site/releases/visitor-tokens';
import { createCanaryCache, createReleaseChooser } from './site/releases/release-choice';
import type { AppName } from '@site/contracts/deploys';
import type { RemoteName } from '@site/contracts/manifest';
import { createShellDocument } from './site/render/shell-document';
import { createShellServer } from './site/render/shell-server';
import { pageTokenIssuer, site } from './site/site-handler';
import { devOverrideLinks } from './site/render/dev-override';
import { sessionToken } from './middleware/require-admin';
import { ownerOfPath } from '@site/contracts/route-ownership';

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

export interface AppInstance {
  /** The Koa application; `app.callback()` is the request handler. Nothing listens yet. */
  app: Koa;
  db: Kysely<Database>;
  database: DatabaseHandle;
  services: Services;
  logger: Logger;
  /** The API router (tests walk its routes). */
  router: ApiRouter;
  /** The background-work runner and its job kinds (lib/job-runner.ts). */
  jobs: JobRunner;
  /** The Prometheus metrics (METRICS_TOKEN set); undefined without. */
  metrics: AppMetrics | undefined;
  /** Sends the spans still batched (OTEL_EXPORTER_OTLP_ENDPOINT set); resolves at once without tracing. */
  flushTraces(): Promise<void>;
  /**
   * Stops taking new work while requests in flight finish (graceful shutdown): `/api/health/ready` answers 503 and
   * the contact outbox takes no more mails (pending ones stay for another instance or the next start). Idempotent.
   */
  drain(): void;
  /** Releases the database (and Redis). Call after the HTTP server has stopped. */
  close(): Promise<void>;
}

/**
 * Builds the whole application without listening: opens the database and runs migrations,
 * then assembles the middleware chain
 * request log -> errors -> security headers -> API routes -> API 404/405 -> site.
 */
export async function createApp(config: Config, deps: AppDeps = {}): Promise<AppInstance> {
  const logger = deps.logger ?? createLogger({ level: config.logLevel });
  const clock = deps.clock ?? systemClock;
  // OTEL_EXPORTER_OTLP_ENDPOINT: the SDK is loaded and installed now, before the database, whose queries it traces.
  const tracing = config.otelEndpoint ? await startTracing({ endpoint: config.otelEndpoint, serviceName: config.otelServiceName ?? 'site-api', logger }) : undefined;
  let database: DatabaseHandle;
  try {
    database = await openDatabase(config, { ...deps.database, logger, trace: Boolean(tracing) });
  } catch (error) {
    await tracing?.stop();
    throw error;
  }
  // The one background-work runner (lib/job-runner.ts): the outboxes, scheduled publishing, release sync and the admin
  // monitor are its job kinds. Started once everything is built; stopped first on drain and close.
  const jobs = createJobRunner({
    clock,
    logger,
    leases: createLeasesRepository(database.db),
    // `metrics` is made below (it reads the runner's status); runs start only once everything is built.
    observe: (kind, result, seconds) => metrics?.jobRun(kind, result, seconds),
  });
  // REDIS_URL: rate limits (and the admin login lockout) counted once for every instance behind the load balancer.
  const redis = config.redisUrl ? await connectRedis(config.redisUrl, logger, { keyPrefix: config.redisKeyPrefix }) : undefined;
  const rateLimits: RateLimitStore = { redis };
  // The shell's server entry renders every page's chrome and provides the remotes' server modules with its React and
  // router (its `shared`), as Module Federation provides the shell's copies in the browser.
  // With RELEASE_TRUSTED_KEYS, the shell too runs only when a key trusted for it signed its release (release-format.ts).
  trustShellKeys(config.siteRoot, config.releaseTrustedKeys ?? []);
  // Which paths each app owns and what a release may carry (issue 51): every check of a manifest reads it.
  useReleasePolicy(config.releasePolicy ?? releasePolicy());
  const shellServer = createShellServer({ siteRoot: config.siteRoot, logger });
  const remotes = createRemoteRegistry({
    siteRoot: config.siteRoot,
    remoteUrls: config.remoteUrls,
    logger,
    shared: async () => (await shellServer.load())?.shared,
    trustedKeys: config.releaseTrustedKeys,
    // On PostgreSQL a staged release is in the store: this instance copies it when a preview first asks for it.
    stagedCopy: (name, version) => releaseSync?.stagedCopy(name, version) ?? Promise.resolve(),
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
  /** A staged release's preview link: the app's first page of the served manifest (else the home page), with a token. */
  const previewLink = async (app: AppName, version: string): Promise<string | undefined> => {
    if (app === 'shell') return undefined;
    const manifest = (await remotes.snapshot()).manifests.find((m) => m.name === app);
    const page = manifest?.routes.find((route) => !route.includes(':') && !route.includes('*')) ?? '/';
    return `${config.publicOrigin}${page}?${PREVIEW_PARAM}=${previews.issue(app, version).token}`;
  };
  /** A development override's link: the app's first page, as a preview link's. */
  const devOverrideLink = async (app: RemoteName, entryUrl: string) => {
    const manifest = (await remotes.snapshot()).manifests.find((m) => m.name === app);
    const page = manifest?.routes.find((route) => !route.includes(':') && !route.includes('*')) ?? '/';
    const { token, expiresAt } = devOverrides.issue(app, entryUrl);
    return { url: `${config.publicOrigin}${page}?${DEV_OVERRIDE_PARAM}=${token}`, expiresAt };
  };
  // Which shell release this instance serves, and since when (health, and each instance's report on PostgreSQL).
  let shellServed: { version: string | null; since: string } | undefined;
  const servedShell = async () => {
    const { dir, version } = await currentShell(config.siteRoot);
    if (!shellServed || shellServed.version !== version) shellServed = { version, since: clock().toISOString() };
    return { dir, version, since: shellServed.since };
  };
  // On PostgreSQL, releases are shared by every instance: deploys land in the database and each instance copies the
  // pointer's release into its own SITE_ROOT, where the registry serves it (site/releases/release-sync.ts).
  const releaseSync =
    database.dialect === 'postgres' && config.databaseUrl
      ? createReleaseSync({
          db: database.db,
          databaseUrl: config.databaseUrl,
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
  const deployed: DeployedRemotes = { snapshot: () => remotes.snapshot(), shell: servedShell, ...(releaseSync ? { shared: () => releaseSync.status() } : {}) };
  // Rendered public pages, kept until what they were made from changes (site/render/render-cache.ts); content changes reach
  // every instance's cache through PostgreSQL (site/render/content-events.ts).
  // On the app's clock, as everything else that ages (tests move it to see a kept page or document age out).
  const renderCache = createRenderCache({ maxBytes: config.renderCacheBytes, clock: () => clock().getTime() });
  const renderQueue = createRenderQueue({ concurrency: config.ssrConcurrency, maxWaitMs: config.ssrQueueMs });
  // METRICS_TOKEN: GET /metrics (lib/metrics.ts). Without it nothing is counted: the default path pays nothing.
  const outboxStats = createOutboxStatsRepository(database.db);
  const metrics = config.metricsToken
    ? createMetrics(
        {
          renderCache: config.renderCacheBytes ? () => renderCache.stats() : undefined,
          renderQueue: () => renderQueue.stats(),
          outboxes: () => outboxStats.outboxes(),
          dbPool: () => database.poolStats(),
          releases: async () => Object.values((await remotes.snapshot()).served ?? {}).map((s) => ({ remote: s.name, version: s.version })),
          now: () => clock().getTime(),
          jobs: () => jobs.status(),
          // Read once `services` exists (a scrape comes after createApp).
          releaseErrors: () => services.releaseErrors,
        },
        { logger },
      )
    : undefined;
  const contentEvents = createContentEvents({
    cache: renderCache,
    logger,
    ...(database.dialect === 'postgres' && config.databaseUrl ? { postgres: { db: database.db, databaseUrl: config.databaseUrl, schema: database.pgSchema } } : {}),
  });
  // Deploys and rollbacks of the five apps, checked as the registry will serve them (site/releases/release-deployer.ts):
  // on PostgreSQL into the shared store, else into SITE_ROOT. Its log lines and alerts are the services' (made below).
  const releases = createReleaseDeployer({
    siteRoot: config.siteRoot,
    ...(database.dialect === 'postgres' ? { shared: database.db } : {}),
    trustedKeys: config.releaseTrustedKeys ?? [],
    // A release's server module is checked with the serving shell's shared modules; a shell must strand no remote.
    sharedModules: async () => (await shellServer.load())?.shared,
    servedManifests: async () => (await remotes.snapshot()).manifests,
    // This instance copies a shared release at once (the others when PostgreSQL tells them), and reads the canaries
    // again before the caller is answered (its next request is split by the new canary).
    switched: async () => {
      void releaseSync?.sync();
      await canaryCache.refresh();
    },
    // Canaries are rows of the site's database (on PostgreSQL the shared store's transaction writes them).
    canaryDb: database.db,
    record: (entry) => services.deployLog.record(entry),
    // Every page of an upload is rendered on a worker first, with the site's own data (site/releases/smoke-render.ts).
    smokeRender: createSmokeRenderer({
      deadlineMs: config.releaseSmokeRenderTimeoutMs,
      logger,
      data: () => createSmokeRenderData({ loaders: () => createRouteDataLoaders(services), posts: services.posts }),
    }),
    previewLink,
    deployedBy: (app, versions) => services.deployLog.deployedBy(app, versions),
    alert: ({ title, message, key }) => services.admin.alerts.notify({ type: 'deployment', severity: 'high', title, message, key, cooldownMs: 0 }),
    logger,
    clock,
  });
  const services = createServices({
    db: database.db,
    clock,
    jobs,
    config,
    logger,
    ping: () => database.ping(),
    lastDatabaseAnswerAt: () => database.lastAnswerAt(),
    remotes: deployed,
    rateLimits,
    analysis: deps.analysis,
    onContentChange: (tags) => contentEvents.changed(tags),
    schedulerPollMs: deps.schedulerPollMs,
    databaseDialect: database.dialect,
    webhookPollMs: deps.webhookPollMs,
    webhookResolver: deps.webhookResolver,
    renderCacheStats: () => renderCache.stats(),
    metrics,
    releases,
    runningCanaries: () => canaryCache.running(),
    pageTokens: visitorTokens,
  });
  // A build never changes what is served by itself: built remotes are imported as releases (the first start's, or a
  // changed build's under `npm start`), before the first request is served.
  const importBuilds = config.releaseImportBuilds ?? 'first';
  if (importBuilds !== 'off') await services.releases.importBuilds(importBuilds, importBuilds === 'first' ? 'first start (the built output)' : 'npm start (a new build)');
  if (deps.adminMonitor) jobs.add(services.admin.monitorJob(deps.adminMonitor === true ? undefined : deps.adminMonitor.intervalMs));
  // Every job kind runs now (work left by a previous process: mails and deliveries due, posts whose time passed while no
  // server ran), then on its poll and whenever a change kicks it.
  jobs.start();

  // The serving shell, read once per page: its document and its server entry, from one release.
  const shell = createShellDocument({ siteRoot: config.siteRoot, server: shellServer });
  // A page's data, for its head (dynamic pages' head()) and its server render: our own services, never the remote.
  const routeDataLoaders = createRouteDataLoaders(services);
  // Public pages are rendered on the server: the shell's server entry around the matched remote's (README).
  const composer = createPageComposer({
    shell: shellServer,
    timeoutMs: config.ssrTimeoutMs,
    queue: renderQueue,
    logger,
    ...(metrics ? { observe: { queued: metrics.renderQueued, rendered: metrics.pageRendered } } : {}),
  });

  // The links' confirmation, and the admin kept out of overrides: its pages (the admin app's routes) and its session.
  const adminRoutes = (config.releasePolicy ?? releasePolicy()).owners;
  const devOverrideSite = devOverrideLinks({
    tokens: devOverrides,
    publicOrigin: config.publicOrigin,
    logger,
    admin: {
      ownsPage: (path) => ownerOfPath(adminRoutes, path) === 'admin',
      liveSession: async (ctx) => Boolean(await services.admin.auth.authenticate(sessionToken(ctx))),
    },
  });

  const router: ApiRouter = new Router();
  let draining = false;
  const routeContext: RouteContext = {
    config,
    logger,
    clock,
    services,
    remotes,
    rateLimits,
    lifecycle: { draining: () => draining },
    ...(config.renderCacheBytes ? { documents: renderCache } : {}),
    // GET /page-token.json (events-routes.ts): each page load's signed token, naming this browser's releases.
    pageTokens: pageTokenIssuer({ remotes, chooseReleases, devOverrides: devOverrideSite, tokens: visitorTokens }),
    devOverrides: { link: devOverrideLink, loopbackOnly: signingOn },
  };
  for (const register of API_ROUTES) register(router, routeContext);

  // Behind a proxy, the client is the address the last `trustProxyHops` proxies appended (rightmost), not the leftmost
  // X-Forwarded-For entry, which the client can write itself.
  const app = new Koa({ proxy: config.trustProxy, maxIpsCount: config.trustProxyHops });
  // Errors after the answer has started (a static file stream failing) arrive here, not in `errors`.
  app.on('error', (err: unknown) => {
    const code = (err as { code?: unknown } | null)?.code;
    // A visitor closing the tab mid-download is not a server fault.
    if (code === 'ERR_STREAM_PREMATURE_CLOSE' || code === 'ECONNRESET' || code === 'EPIPE') {
      logger.debug({ err }, 'client went away during the response');
      return;
    }
    logger.error({ err }, 'response failed after it had started');
  });

  // First: the request's id (X-Request-Id on every answer, on every log line of the request), then its span and count.
  app.use(requestId({ logger, trustProxy: config.trustProxy }));
  if (tracing) app.use(traceRequests({ trustProxy: config.trustProxy }));
  if (metrics) app.use(httpMetrics({ metrics }));
  app.use(requestLog({ logger }));
  // Outside the error handler, so it sees final statuses: the admin's traffic table and webhook-reject alerts.
  app.use(observeRequests({ onAnswered: (request) => services.admin.requestAnswered(request) }));
  // Outside the error handler, so it sees every failed contact answer (even the 413 before routing): spec fields added.
  app.use(contactFailureAnswer());
  app.use(errors({ logger, onServerError: (info) => services.admin.serverError(info), onStorageFailure: (failure) => services.disk.failed(failure) }));
  app.use(compress());
  // Validators for reads made in memory, on the body before compression (middleware/etag.ts).
  app.use(etags());
  app.use(
    securityHeaders({
      inlineScriptHashes: () => shell.scriptHashes(),
      remoteOrigins: [...new Set(Object.values(config.remoteUrls).map((url) => new URL(url).origin))],
    }),
  );
  app.use(
    requestBodyLimits({
      limit: config.bodyLimit,
      idleTimeoutMs: config.bodyIdleTimeoutMs,
      // Uploads (images up to 10 MB): the routes that read a body bigger than BODY_LIMIT (streamed to disk, counted as it comes).
      exceptions: largeBodyLimits(API_ENDPOINTS),
    }),
  );
  if (metrics && config.metricsToken) app.use(metricsEndpoint({ metrics, token: config.metricsToken }));
  app.use(router.routes());
  app.use(apiFallback({ router }));
  app.use(
    site({
      publicOrigin: config.publicOrigin,
      shell,
      remotes,
      loaders: routeDataLoaders,
      composer,
      logger,
      ...(config.renderCacheBytes ? { cache: renderCache } : {}),
      // A browser with a preview link's cookie gets the staged release it previews (site/releases/release-choice.ts).
      chooseReleases,
      previews,
      devOverrides: devOverrideSite,
      // Every page of a remote and every failed server render, against the release that served it (release-errors/).
      ...(config.releaseErrorCounting !== false ? { releaseCounts: services.releaseErrors } : {}),
    }),
  );

  return {
    app,
    db: database.db,
    database,
    services,
    logger,
    router,
    jobs,
    metrics,
    flushTraces: () => tracing?.flush() ?? Promise.resolve(),
    drain() {
      if (draining) return;
      draining = true;
      // No new background run (mails and deliveries due stay for another instance or the next start).
      void jobs.stop();
    },
    close: async () => {
      draining = true;
      await jobs.stop();
      await services.admin.close();
      services.contact.close();
      await releaseSync?.close();
      await contentEvents.close();
      await database.close();
      if (redis) await closeRedis(redis);
      await tracing?.stop();
    },
  };
}
